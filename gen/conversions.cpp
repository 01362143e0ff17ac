// conversions.cpp - the conversion recipes (conversions.hpp).
#include "conversions.hpp"

namespace mktb {

namespace {

// The child's stored metric a conversion is valued from: its own counted metric while the
// count goes on (a Bia still on the board; a capture keeping men on both sides under board's
// honour), else its DTM, or its board's honour metric when the last Bia leaves men on both sides.
Metric metric_read(Metric metric, CountPhase child) {
    if (metric == Metric::Dtm || child == CountPhase::PiecesHonour) return Metric::Dtm;
    if (metric == Metric::Bia && child == CountPhase::NoCount) return Metric::Bia;
    return Metric::Board;
}

} // namespace

Position representative(const Material& m, Color stm) {
    Position pos;
    pos.put_piece(make_piece(WHITE, KHUN), SQ_A1);
    pos.put_piece(make_piece(BLACK, KHUN), SQ_H8);
    int next = SQ_C1;
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder)
            for (int k = 0; k < m.count[c][pt]; ++k) {
                Square s;
                do s = Square(next++);
                while (!pos.empty(s) || (pt == BIA && !(kBiaSquares[c] & square_bb(s))));
                pos.put_piece(make_piece(c, pt), s);
            }
    pos.set_side_to_move(stm);
    return pos;
}

Conversions::Conversions(const GenIndex& gi, const std::vector<Metric>& metrics,
    const CountRules& rules, const std::string& dir)
    : index_(gi)
    , material_(gi.material())
    , metrics_(metrics)
    , rules_(rules)
    , children_(std::make_unique<Tablebase>(dir)) {
    for (const Material& c : material_.children())
        if (!children_->table(c))
            throw TableError("the table of " + c.name() + " (which " + material_.name()
                + " converts into) is missing from " + dir + ": generate it first");
    for (int jc = -1; jc < index_.men(); ++jc)
        for (int jp = -1; jp < index_.men(); ++jp) {
            if (jp >= 0 && index_.type(jp) != BIA) continue;
            if (jc >= 0 && jp >= 0 && index_.color(jc) == index_.color(jp)) continue;
            if (jc < 0 && jp < 0) continue;
            // Only the first man of a group is captured by kind; the others share it.
            if (jc >= 0 && index_.group_first(jc) != jc) continue;
            if (jp >= 0 && index_.group_first(jp) != jp) continue;
            recipes_[std::size_t(jc + 1)][std::size_t(jp + 1)] = make_recipe(jc, jp);
        }
}

Conversions::~Conversions() = default;

std::unique_ptr<Conversions::Recipe> Conversions::make_recipe(int jc, int jp) const {
    auto r = std::make_unique<Recipe>();
    Material child = material_;
    if (jc >= 0) --child.count[index_.color(jc)][index_.type(jc)];
    if (jp >= 0) --child.count[index_.color(jp)][BIA], ++child.count[index_.color(jp)][MET];
    if (child.bare_kings()) {
        r->bareKings = true;
        return r;
    }
    r->swapped = !child.is_canonical();
    const Material canon = child.canonical();
    r->table = children_->table(canon);
    // Child men slots: its groups in name order, White's (this table's Black's when swapped)
    // first; identical men fill their group in any order (the encoder sorts).
    std::array<std::array<int, PIECE_TYPE_NB>, COLOR_NB> next {};
    int slot = 0;
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder) next[c][pt] = slot, slot += canon.count[c][pt];
    for (int j = 0; j < index_.men(); ++j) {
        if (j == jc) {
            r->dest[std::size_t(j)] = -1;
            continue;
        }
        const Color c = r->swapped ? ~index_.color(j) : index_.color(j);
        const PieceType pt = j == jp ? MET : index_.type(j);
        r->dest[std::size_t(j)] = std::int8_t(next[c][pt]++);
    }
    // The side that converts, and the child's side to move after it in the child's colours.
    const Color mover = jp >= 0 ? index_.color(jp) : ~index_.color(jc);
    const Color childStm = r->swapped ? mover : ~mover;
    const CountPhase phase = count_phase(canon);
    for (std::size_t k = 0; k < metrics_.size(); ++k) {
        Recipe::Read& read = r->read[k];
        const Metric m = read.metric = metric_read(metrics_[k], phase);
        if (!r->table->has(m) || (m != Metric::Dtm && r->table->rules() != encode(rules_)))
            throw TableError("the table of " + canon.name() + " lacks the counted values "
                + "for these counting options: generate it again");
        // Read many million times: plain arrays, no cache; only the side to move read.
        r->table->make_resident(Table::part(m, childStm));
        read.cells = r->table->resident_cells(m, childStm);
        read.wide = r->table->cell_bytes(m) > 1;
        const unsigned cells = 1u << (8 * r->table->cell_bytes(m));
        for (Color stm : { WHITE, BLACK }) {
            // The metric read is DTM under pieces' honour, the child's own counted one else:
            // the stored value stands for both.
            const Position pos = representative(canon, stm);
            read.value[stm].resize(cells);
            for (unsigned v = 0; v < cells; ++v) {
                const Value stored = Value::from_cell(v);
                read.value[stm][v]
                    = conversion_value(metrics_[k], pos, phase, stored, stored, rules_);
            }
        }
    }
    return r;
}

} // namespace mktb
