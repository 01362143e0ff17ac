// statistics.cpp - the output's tally of figures and the statistics file (statistics.hpp).
#include "statistics.hpp"

#include <nlohmann/json.hpp>

#include "conversions.hpp"

namespace mktb {

StatsTally::StatsTally(
    const Material& m, const std::vector<Metric>& metrics, const CountRules& rules, int maxLevel)
    : material_(m) {
    // Pieces' honour counts DTM; board's honour and the Bia phase their own metric.
    counted_ = metrics.size() > 1 ? 1 : count_phase(m) == CountPhase::PiecesHonour ? 0 : -1;
    if (counted_ < 0) return;
    // The counted metric is the phase's own (Bia, Board), or DTM under pieces' honour.
    const CountPhase phase = count_phase(m);
    for (Color c : { WHITE, BLACK }) {
        const Position pos = representative(m, c);
        const CountState fresh = fresh_count(pos, rules);
        countedDecided_[c].resize(std::size_t(maxLevel) + 1);
        for (int p = 0; p <= maxLevel; ++p) {
            const Value v = Value::mate_in_plies(p);
            countedDecided_[c][std::size_t(p)]
                = counted_value(phase, pos, v, v, fresh, rules).result
                != CountedValue::Result::Draw;
        }
    }
}

void StatsTally::finish(TableStats& stats, Ranks& ranks) {
    Local total;
    locals_.combine_each([&](const Local& l) {
        for (Color c : { WHITE, BLACK }) {
            SideStats& t = total.side[c];
            const SideStats& s = l.side[c];
            t.legal += s.legal, t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
            t.counted_wins += s.counted_wins, t.counted_losses += s.counted_losses;
            for (std::size_t m = 0; m < l.wins[c].size(); ++m)
                if (l.wins[c][m]) t.win_moves[int(m)] += l.wins[c][m];
            for (std::size_t m = 0; m < l.losses[c].size(); ++m)
                if (l.losses[c][m]) t.loss_moves[int(m)] += l.losses[c][m];
            if (s.longest_plies > t.longest_plies
                || (s.longest_plies == t.longest_plies
                    && l.longestSlot[c] < total.longestSlot[c])) {
                t.longest_plies = s.longest_plies;
                total.longestSlot[c] = l.longestSlot[c];
            }
        }
    });
    if (ranks.size() > 1) merge_over_ranks(total.side, total.longestSlot, ranks);
    stats.name = material_.name();
    stats.side = total.side;
    stats.counted = counted_ >= 0;
    const Index names(material_, Index::kSchemeNameOrder);
    for (Color c : { WHITE, BLACK })
        if (total.side[c].longest_plies >= 0) {
            Position pos;
            names.decode(total.longestSlot[c], pos);
            pos.set_side_to_move(c);
            stats.side[c].longest_fen = pos.fen();
        }
}

void merge_over_ranks(
    std::array<SideStats, 2>& side, std::array<std::uint64_t, 2>& longestSlot, Ranks& ranks) {
    std::size_t moves = 0; // the histograms' length: every rank's longest
    for (Color c : { WHITE, BLACK })
        for (const auto& h : { side[c].win_moves, side[c].loss_moves })
            if (!h.empty()) moves = std::max(moves, std::size_t(h.rbegin()->first) + 1);
    moves = std::size_t(ranks.reduce(moves, Ranks::Op::Max));
    // Per side: six counts, then the wins' and the losses' histogram.
    const std::size_t stride = 6 + 2 * moves;
    std::vector<std::uint64_t> v;
    std::array<std::uint64_t, COLOR_NB> longest; // plies + 1, so that no mate (-1) is 0
    for (Color c : { WHITE, BLACK }) {
        const SideStats& s = side[c];
        v.insert(v.end(), { s.legal, s.wins, s.draws, s.losses, s.counted_wins, s.counted_losses });
        for (const auto* h : { &s.win_moves, &s.loss_moves })
            for (std::size_t m = 0; m < moves; ++m) {
                const auto it = h->find(int(m));
                v.push_back(it == h->end() ? 0 : it->second);
            }
        longest[c] = std::uint64_t(s.longest_plies + 1);
    }
    ranks.reduce(v, Ranks::Op::Sum);
    ranks.reduce(longest, Ranks::Op::Max);
    std::array<std::uint64_t, COLOR_NB> slot; // of the ranks that attain the longest
    for (Color c : { WHITE, BLACK }) {
        SideStats& s = side[c];
        slot[c] = longest[c] == std::uint64_t(s.longest_plies + 1) ? longestSlot[c] : ~0ULL;
        const std::uint64_t* x = v.data() + std::size_t(c) * stride;
        s.legal = x[0], s.wins = x[1], s.draws = x[2], s.losses = x[3];
        s.counted_wins = x[4], s.counted_losses = x[5];
        s.longest_plies = int(longest[c]) - 1;
        s.win_moves.clear(), s.loss_moves.clear();
        for (std::size_t m = 0; m < moves; ++m) {
            if (x[6 + m]) s.win_moves[int(m)] = x[6 + m];
            if (x[6 + moves + m]) s.loss_moves[int(m)] = x[6 + moves + m];
        }
    }
    ranks.reduce(slot, Ranks::Op::Min);
    longestSlot = slot;
}

std::string TableStats::to_json() const {
    using Json = nlohmann::ordered_json;
    const bool xiangqi = game == "xiangqi";
    Json phases = Json::object();
    for (const auto& [phase, s] : phase_seconds) phases[phase] = s;
    Json sides = Json::object();
    for (int c : { 0, 1 }) {
        const SideStats& s = side[std::size_t(c)];
        Json wins = Json::object(), losses = Json::object();
        for (auto [moves, n] : s.win_moves) wins[std::to_string(moves)] = n;
        for (auto [moves, n] : s.loss_moves) losses[std::to_string(moves)] = n;
        Json& j = sides[side_key(xiangqi, c)];
        j = {
            { "legal", s.legal },
            { "wins", s.wins },
            { "draws", s.draws },
            { "losses", s.losses },
            { "longest_mate_plies", s.longest_plies },
            { "longest_mate_fen", s.longest_fen },
            { "counted_wins", counted ? Json(s.counted_wins) : Json() },
            { "counted_losses", counted ? Json(s.counted_losses) : Json() },
        };
        if (rule_rounds) {
            j["rule_wins"] = s.rule_wins;
            j["rule_losses"] = s.rule_losses;
            j["rule_longest_plies"] = s.rule_longest_plies;
            j["rule_longest_fen"] = s.rule_longest_fen;
        }
        j["win_in_moves"] = wins;
        j["loss_in_moves"] = losses;
    }
    Json j = {
        { "game", game },
        { "ending", name },
        { "index_size", index_size },
        { "cell_bytes", cell_bytes },
        { "file_bytes", file_bytes },
        { "seconds", seconds },
        { "phase_seconds", phases },
        { "levels", levels },
    };
    if (xiangqi) {
        j["rule"] = rule;
        if (rule_rounds) j["rule_rounds"] = rule_rounds;
    } else {
        j["listed_cells"] = listed;
        j["listed_cells_most"] = listed_most;
    }
    j["sides"] = sides;
    if (ranks > 1) {
        j["ranks"] = ranks;
        j["exchanged_bytes"] = exchanged;
    }
    return j.dump(2) + "\n";
}

} // namespace mktb
