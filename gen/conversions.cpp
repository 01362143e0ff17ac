// conversions.cpp - the conversion recipes (conversions.hpp).
#include "conversions.hpp"

namespace mktb {

// Its own counted metric while the count goes on (a Bia still on the board; a capture keeping
// men on both sides under board's honour), else its DTM, or its board's honour metric when the
// last Bia leaves men on both sides.
Metric metric_read(Metric metric, CountPhase child) {
    if (metric == Metric::Dtm || child == CountPhase::PiecesHonour) return Metric::Dtm;
    if (metric == Metric::Bia && child == CountPhase::NoCount) return Metric::Bia;
    return Metric::Board;
}

ChildRead child_read(const GenIndex& gi, int jc, int jp) {
    Material child = gi.material();
    if (jc >= 0) --child.count[gi.color(jc)][gi.type(jc)];
    if (jp >= 0) --child.count[gi.color(jp)][BIA], ++child.count[gi.color(jp)][MET];
    ChildRead r;
    r.bareKings = child.bare_kings();
    r.swapped = !child.is_canonical();
    r.child = child.canonical();
    // The side that converts; the other moves next, in the child's colours.
    const Color mover = jp >= 0 ? gi.color(jp) : ~gi.color(jc);
    r.stm = r.swapped ? mover : ~mover;
    return r;
}

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
    for_each_conversion_kind(index_, [&](int jc, int jp) {
        recipes_[std::size_t(jc + 1)][std::size_t(jp + 1)] = make_recipe(jc, jp);
    });
}

Conversions::~Conversions() = default;

std::unique_ptr<Conversions::Recipe> Conversions::make_recipe(int jc, int jp) const {
    auto r = std::make_unique<Recipe>();
    const ChildRead kind = child_read(index_, jc, jp);
    if (kind.bareKings) {
        r->bareKings = true;
        return r;
    }
    r->swapped = kind.swapped;
    const Material& canon = kind.child;
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
    const Color childStm = kind.stm;
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
