// probe_c.cpp - the C probing API (mktb/probe.h) over the C++ one (mktb/probe.hpp): positions
// are checked and converted, exceptions become status codes, and the details of a failure stay
// in a thread-local message.
#include "mktb/probe.h"

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>
#include <utility>

#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"

struct mktb_tablebase {
    mktb::Prober prober;
};

namespace {

// The handles open now, so that mktb_close can tell a handle from one it has closed: a second
// close of a handle is then harmless (it is reported, nothing is freed twice). Only open and
// close take the lock; probes never look here.
struct OpenHandles {
    std::mutex mutex;
    std::unordered_set<const mktb_tablebase*> handles;
};
OpenHandles& open_handles() {
    static OpenHandles handles;
    return handles;
}

} // namespace

namespace {

using namespace mktb;

thread_local std::string lastError;

mktb_status fail(mktb_status status, std::string message) {
    lastError = std::move(message);
    return status;
}

// Runs fn() (which returns MKTB_OK or a failure it set itself), turning exceptions into codes.
template<class Fn>
mktb_status guarded(Fn&& fn) {
    try {
        lastError.clear();
        return fn();
    } catch (const RulesError& e) {
        return fail(MKTB_RULES_MISMATCH, e.what());
    } catch (const TableError& e) {
        return fail(MKTB_DAMAGED, e.what());
    } catch (const std::bad_alloc&) {
        return fail(MKTB_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(MKTB_BAD_ARGUMENT, e.what());
    } catch (...) {
        return fail(MKTB_INTERNAL_ERROR, "an unexpected failure inside mktb");
    }
}

// The position a caller passed, or a message saying what is wrong with it.
bool to_position(const mktb_position* in, Position& out) {
    if (!in) return fail(MKTB_BAD_ARGUMENT, "the position is NULL"), false;
    const Bitboard kinds[] = { in->khun, in->met, in->khon, in->ma, in->ruea, in->bia };
    const PieceType types[] = { KHUN, MET, KHON, MA, RUEA, BIA };
    Bitboard seen = 0;
    for (Bitboard b : kinds) {
        if (seen & b) return fail(MKTB_BAD_POSITION, "a square holds two kinds of men"), false;
        seen |= b;
    }
    if (in->white & in->black)
        return fail(MKTB_BAD_POSITION, "a square holds men of both colours"), false;
    if (seen != (in->white | in->black))
        return fail(MKTB_BAD_POSITION,
                   "the colour and kind bitboards do not cover the same squares"),
               false;
    if (in->side_to_move > MKTB_BLACK)
        return fail(MKTB_BAD_POSITION, "side_to_move is neither MKTB_WHITE nor MKTB_BLACK"), false;
    Position pos;
    for (int k = 0; k < 6; ++k)
        for (Bitboard b = kinds[k]; b; b &= b - 1) {
            const Square s = lsb(b);
            pos.put_piece(make_piece(in->white >> s & 1 ? WHITE : BLACK, types[k]), s);
        }
    pos.set_side_to_move(Color(in->side_to_move));
    pos.set_count_state({ in->counting_limit, in->counting_ply });
    if (const std::string why = pos.validity_error(); !why.empty())
        return fail(MKTB_BAD_POSITION, why), false;
    out = pos;
    return true;
}

mktb_wdl wdl_of(Value v) { return v.is_win() ? MKTB_WIN : v.is_loss() ? MKTB_LOSS : MKTB_DRAW; }

mktb_dtm dtm_of(Value v) { return { wdl_of(v), v.is_draw() ? -1 : std::int32_t(v.plies) }; }

mktb_counted counted_of(const CountedValue& c) {
    return { std::int32_t(c.result), c.moves_needed, c.moves_available };
}

mktb_move move_of(Move m) {
    mktb_move out {};
    out.from = std::uint8_t(from_sq(m));
    out.to = std::uint8_t(to_sq(m));
    out.promotes = is_promotion(m);
    const std::string uci = move_to_uci(m);
    std::memcpy(out.uci, uci.c_str(), std::min(uci.size() + 1, sizeof out.uci));
    return out;
}

template<class T>
mktb_status no_table(const std::optional<T>& v) {
    return v ? MKTB_OK
             : fail(MKTB_NO_TABLE, "a table this position needs is missing from the directory");
}

// A Xiangqi position from a FEN or a structure; MKTB_BAD_POSITION, with the reason, when it is
// not a legal one.
mktb_status to_position(const char* fen, xq::Position& pos) {
    if (!fen) return fail(MKTB_BAD_ARGUMENT, "the FEN is NULL");
    try {
        pos = xq::Position::from_fen(fen);
        return MKTB_OK;
    } catch (const FenError& e) {
        return fail(MKTB_BAD_POSITION, std::string("bad Xiangqi FEN: ") + e.what());
    }
}
mktb_status to_position(const mktb_xiangqi_position* in, xq::Position& pos) {
    if (!in) return fail(MKTB_BAD_ARGUMENT, "the position is NULL");
    pos.clear();
    bool king[COLOR_NB] = {};
    for (int p = 0; p < xq::POINT_NB; ++p) {
        const unsigned man = in->point[p];
        if (!man) continue;
        const auto pt = xq::PieceType(man & 7);
        if (man > 15 || pt == xq::NO_PIECE_TYPE)
            return fail(MKTB_BAD_POSITION,
                "point " + std::to_string(p) + " holds " + std::to_string(man)
                    + ", which is no man (a kind 1-7, plus 8 for Black's)");
        const Color c = Color(man >> 3);
        if (pt == xq::KING && std::exchange(king[c], true))
            return fail(
                MKTB_BAD_POSITION, std::string(c == xq::RED ? "Red" : "Black") + " has two kings");
        pos.put_piece(xq::Piece(man), p);
    }
    if (in->side_to_move > 1)
        return fail(MKTB_BAD_POSITION,
            "side_to_move " + std::to_string(in->side_to_move)
                + " is neither MKTB_WHITE (Red) nor MKTB_BLACK");
    pos.set_side_to_move(Color(in->side_to_move));
    if (const std::string why = pos.validity_error(); !why.empty())
        return fail(MKTB_BAD_POSITION, why);
    return MKTB_OK;
}

// The game's position of each input: Makruk's structure, or Xiangqi's FEN or structure.
template<class In>
struct GamePosition {
    using type = xq::Position;
};
template<>
struct GamePosition<mktb_position> {
    using type = Position;
};
mktb_status to_position(const mktb_position* in, Position& pos, int) {
    return to_position(in, pos) ? MKTB_OK : in ? MKTB_BAD_POSITION : MKTB_BAD_ARGUMENT;
}
mktb_status to_position(const char* fen, xq::Position& pos, int) { return to_position(fen, pos); }
mktb_status to_position(const mktb_xiangqi_position* in, xq::Position& pos, int) {
    return to_position(in, pos);
}

// The common shape of a probe of either game: check the arguments, convert the position, then
// answer.
template<class In, class Fn>
mktb_status probe(const mktb_tablebase* tb, const In* in, const void* out, Fn&& fn) {
    if (!tb || !out) return fail(MKTB_BAD_ARGUMENT, "a NULL handle or result pointer");
    return guarded([&] {
        typename GamePosition<In>::type pos;
        if (const mktb_status s = to_position(in, pos, 0); s != MKTB_OK) return s;
        return fn(tb->prober, pos);
    });
}

// A list answer into a caller's buffer: *count = its size, MKTB_BUFFER_TOO_SMALL when it does
// not fit (nothing written), else each element converted.
template<class List, class Out, class Convert>
mktb_status fill(const List& list, Out* out, std::size_t capacity, std::size_t* count,
    const char* what, Convert&& convert) {
    *count = list.size();
    if (list.size() > capacity)
        return fail(MKTB_BUFFER_TOO_SMALL,
            std::to_string(list.size()) + " " + what + " do not fit in "
                + std::to_string(capacity));
    for (std::size_t i = 0; i < list.size(); ++i) out[i] = convert(list[i]);
    return MKTB_OK;
}

// A probe with one answer: get(prober, position) gives it (nullopt: a table is missing), stored
// in *out as convert(answer).
template<class In, class Out, class Get, class Convert>
mktb_status one_answer(
    const mktb_tablebase* tb, const In* in, Out* out, Get&& get, Convert&& convert) {
    return probe(tb, in, out, [&](const Prober& p, const auto& pos) {
        const auto v = get(p, pos);
        if (v) *out = convert(*v);
        return no_table(v);
    });
}

// Xiangqi's moves, best first, over a FEN or a structure.
template<class In>
mktb_status xiangqi_rank(const mktb_tablebase* tb, const In* in, mktb_xiangqi_move* moves,
    std::size_t capacity, std::size_t* count) {
    if (!count) return fail(MKTB_BAD_ARGUMENT, "a NULL count pointer");
    return probe(tb, in, moves || capacity ? static_cast<const void*>(moves) : count,
        [&](const Prober& p, const xq::Position& pos) {
            const auto ranked = p.rank_root(pos);
            if (!ranked) return no_table(ranked);
            return fill(*ranked, moves, capacity, count, "legal moves", [](const XiangqiMove& r) {
                mktb_xiangqi_move m {};
                m.from = std::uint8_t(xq::from_pt(r.move));
                m.to = std::uint8_t(xq::to_pt(r.move));
                const std::string uci = xq::move_to_uci(r.move);
                std::memcpy(m.uci, uci.c_str(), std::min(uci.size() + 1, sizeof m.uci));
                m.value = dtm_of(r.value);
                return m;
            });
        });
}

} // namespace

static_assert(MKTB_VERSION == MKTB_PROJECT_VERSION,
    "mktb/probe.h's MKTB_VERSION_* must be the project's version (CMakeLists.txt)");

extern "C" {

uint32_t mktb_version(void) { return MKTB_VERSION; }

void mktb_options_default(mktb_options* options) {
    if (options) *options = { sizeof(mktb_options), 0, 0, MKTB_XIANGQI_RULES_DEFAULT };
}

mktb_status mktb_open(const char* dir, const mktb_options* options, mktb_tablebase** out) {
    if (!dir || !out) return fail(MKTB_BAD_ARGUMENT, "a NULL directory or result pointer");
    *out = nullptr;
    return guarded([&] {
        ProbeOptions o;
        if (options) {
            // Fields are read only as far as the caller's struct reaches: an older, shorter
            // mktb_options keeps the defaults of the fields it lacks.
            if (options->size < offsetof(mktb_options, cache_bytes))
                return fail(MKTB_BAD_ARGUMENT,
                    "mktb_options.size is " + std::to_string(options->size)
                        + ": call mktb_options_default first");
            if (options->rules >> int(RuleOption::NB))
                return fail(MKTB_BAD_ARGUMENT, "unknown bits in mktb_options.rules");
            o.rules = decode_rules(options->rules);
            if (options->size >= offsetof(mktb_options, cache_bytes) + sizeof(uint64_t)
                && options->cache_bytes)
                o.cache_bytes = std::size_t(options->cache_bytes);
            if (options->size >= offsetof(mktb_options, xiangqi_rules) + sizeof(uint32_t)) {
                // MKTB_XIANGQI_RULES_X is xq::RuleSet::X + 1; 0 keeps the default.
                static_assert(MKTB_XIANGQI_RULES_NONE == int(xq::RuleSet::None) + 1
                    && MKTB_XIANGQI_RULES_CHECK == int(xq::RuleSet::Check) + 1
                    && MKTB_XIANGQI_RULES_ASIAN == int(xq::RuleSet::Asian) + 1);
                const std::uint32_t r = options->xiangqi_rules;
                if (r > MKTB_XIANGQI_RULES_ASIAN)
                    return fail(MKTB_BAD_ARGUMENT,
                        "mktb_options.xiangqi_rules is " + std::to_string(r)
                            + ": one of MKTB_XIANGQI_RULES_DEFAULT, _NONE, _CHECK, _ASIAN");
                if (r) o.xiangqi_rules = xq::RuleSet(r - 1);
            }
        }
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return fail(MKTB_BAD_ARGUMENT, std::string(dir) + " is not a directory of tables");
        *out = new mktb_tablebase { Prober(dir, o) };
        OpenHandles& open = open_handles();
        std::lock_guard lock(open.mutex);
        open.handles.insert(*out);
        return MKTB_OK;
    });
}

void mktb_close(mktb_tablebase* tb) {
    if (!tb) return;
    {
        OpenHandles& open = open_handles();
        std::lock_guard lock(open.mutex);
        if (!open.handles.erase(tb)) {
            lastError = "mktb_close: not an open handle (closed already?)";
            return;
        }
    }
    delete tb;
}

mktb_status mktb_available(const mktb_tablebase* tb, const char* material) {
    if (!tb || !material) return fail(MKTB_BAD_ARGUMENT, "a NULL handle or material");
    return guarded([&] {
        std::string error;
        const auto m = Material::parse(material, &error);
        if (!m) return fail(MKTB_BAD_ARGUMENT, error);
        if (tb->prober.available(*m)) return MKTB_OK;
        return fail(MKTB_NO_TABLE, "no table of " + m->canonical().name());
    });
}

uint32_t mktb_largest(const mktb_tablebase* tb) {
    return tb ? std::uint32_t(tb->prober.largest()) : 0;
}

mktb_status mktb_position_from_fen(const char* fen, mktb_position* out) {
    if (!fen || !out) return fail(MKTB_BAD_ARGUMENT, "a NULL FEN or result pointer");
    return guarded([&] {
        try {
            const Position pos = Position::from_fen(fen);
            *out = {};
            out->white = pos.pieces(WHITE);
            out->black = pos.pieces(BLACK);
            out->khun = pos.pieces(KHUN), out->met = pos.pieces(MET), out->khon = pos.pieces(KHON);
            out->ma = pos.pieces(MA), out->ruea = pos.pieces(RUEA), out->bia = pos.pieces(BIA);
            out->side_to_move = std::uint8_t(pos.side_to_move());
            out->counting_limit = std::uint16_t(pos.count_state().limit);
            out->counting_ply = std::uint16_t(pos.count_state().ply);
            return MKTB_OK;
        } catch (const FenError& e) {
            return fail(MKTB_BAD_POSITION, std::string("bad FEN: ") + e.what());
        }
    });
}

mktb_status mktb_probe_wdl(const mktb_tablebase* tb, const mktb_position* pos, mktb_wdl* out) {
    return one_answer(
        tb, pos, out, [](const Prober& p, const Position& q) { return p.wdl(q); },
        [](Wdl w) { return mktb_wdl(int(w)); });
}

mktb_status mktb_probe_dtm(const mktb_tablebase* tb, const mktb_position* pos, mktb_dtm* out) {
    return one_answer(
        tb, pos, out, [](const Prober& p, const Position& q) { return p.dtm(q); }, dtm_of);
}

mktb_status mktb_probe_counted(
    const mktb_tablebase* tb, const mktb_position* pos, mktb_counted* out) {
    return one_answer(
        tb, pos, out, [](const Prober& p, const Position& q) { return p.counted(q); }, counted_of);
}

mktb_status mktb_probe_counted_wdl(
    const mktb_tablebase* tb, const mktb_position* pos, mktb_wdl* out) {
    return one_answer(
        tb, pos, out, [](const Prober& p, const Position& q) { return p.counted_wdl(q); },
        [](Wdl w) { return mktb_wdl(int(w)); });
}

mktb_status mktb_best_moves(const mktb_tablebase* tb, const mktb_position* pos, int32_t view,
    mktb_move* moves, size_t capacity, size_t* count) {
    if (!count) return fail(MKTB_BAD_ARGUMENT, "a NULL count pointer");
    if (view != MKTB_VIEW_PURE && view != MKTB_VIEW_COUNTED)
        return fail(MKTB_BAD_ARGUMENT, "view is neither MKTB_VIEW_PURE nor MKTB_VIEW_COUNTED");
    // moves may be NULL with capacity 0: the call then tells the size needed.
    return probe(tb, pos, moves || capacity ? static_cast<const void*>(moves) : count,
        [&](const Prober& p, const Position& position) {
            const auto best
                = p.best_moves(position, view == MKTB_VIEW_COUNTED ? View::Counted : View::Pure);
            if (!best) return no_table(best);
            return fill(*best, moves, capacity, count, "moves", move_of);
        });
}

mktb_status mktb_rank_root(const mktb_tablebase* tb, const mktb_position* pos,
    mktb_root_move* moves, size_t capacity, size_t* count) {
    if (!count) return fail(MKTB_BAD_ARGUMENT, "a NULL count pointer");
    return probe(tb, pos, moves || capacity ? static_cast<const void*>(moves) : count,
        [&](const Prober& p, const Position& position) {
            const auto ranked = p.rank_root(position);
            if (!ranked) return no_table(ranked);
            return fill(*ranked, moves, capacity, count, "legal moves", [](const RankedMove& r) {
                return mktb_root_move { move_of(r.move), dtm_of(r.pure), counted_of(r.counted) };
            });
        });
}

// Xiangqi's answers: the same probes over its FEN or its structure.
namespace {
const auto kDtm = [](const Prober& p, const auto& pos) { return p.dtm(pos); };
const auto kRuleWdl = [](const Prober& p, const auto& pos) { return p.rule_wdl(pos); };
const auto kWdlOf = [](Wdl w) { return mktb_wdl(int(w)); };
} // namespace

mktb_status mktb_xiangqi_probe_fen(const mktb_tablebase* tb, const char* fen, mktb_dtm* out) {
    return one_answer(tb, fen, out, kDtm, dtm_of);
}
mktb_status mktb_xiangqi_probe_dtm(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_dtm* out) {
    return one_answer(tb, pos, out, kDtm, dtm_of);
}
mktb_status mktb_xiangqi_probe_wdl(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_wdl* out) {
    return one_answer(
        tb, pos, out, [](const Prober& p, const xq::Position& q) { return p.wdl(q); }, kWdlOf);
}

mktb_status mktb_xiangqi_probe_rule(const mktb_tablebase* tb, const char* fen, int32_t* result) {
    return one_answer(tb, fen, result, kRuleWdl, [](Wdl w) { return std::int32_t(w); });
}
const auto kRulePlies = [](const Prober& p, const auto& pos) { return p.rule_plies(pos); };
const auto kPlies = [](int plies) { return std::int32_t(plies); };
mktb_status mktb_xiangqi_probe_rule_plies(
    const mktb_tablebase* tb, const char* fen, int32_t* plies) {
    return one_answer(tb, fen, plies, kRulePlies, kPlies);
}
mktb_status mktb_xiangqi_probe_rule_plies_position(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, int32_t* plies) {
    return one_answer(tb, pos, plies, kRulePlies, kPlies);
}
mktb_status mktb_xiangqi_probe_rule_wdl(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_wdl* out) {
    return one_answer(tb, pos, out, kRuleWdl, kWdlOf);
}

mktb_status mktb_xiangqi_rank_root(const mktb_tablebase* tb, const char* fen,
    mktb_xiangqi_move* moves, size_t capacity, size_t* count) {
    return xiangqi_rank(tb, fen, moves, capacity, count);
}
mktb_status mktb_xiangqi_rank_root_position(const mktb_tablebase* tb,
    const mktb_xiangqi_position* pos, mktb_xiangqi_move* moves, size_t capacity, size_t* count) {
    return xiangqi_rank(tb, pos, moves, capacity, count);
}

mktb_status mktb_xiangqi_position_from_fen(const char* fen, mktb_xiangqi_position* out) {
    if (!fen || !out) return fail(MKTB_BAD_ARGUMENT, "a NULL FEN or result pointer");
    return guarded([&] {
        xq::Position pos;
        if (const mktb_status s = to_position(fen, pos); s != MKTB_OK) return s;
        *out = {};
        for (int p = 0; p < xq::POINT_NB; ++p) out->point[p] = std::uint8_t(pos.piece_on(p));
        out->side_to_move = std::uint8_t(pos.side_to_move());
        return MKTB_OK;
    });
}

const char* mktb_status_name(mktb_status status) {
    switch (status) {
    case MKTB_OK:
        return "ok";
    case MKTB_NO_TABLE:
        return "no table";
    case MKTB_DAMAGED:
        return "damaged table";
    case MKTB_RULES_MISMATCH:
        return "table built with other counting options";
    case MKTB_BAD_POSITION:
        return "bad position";
    case MKTB_BAD_ARGUMENT:
        return "bad argument";
    case MKTB_OUT_OF_MEMORY:
        return "out of memory";
    case MKTB_BUFFER_TOO_SMALL:
        return "buffer too small";
    case MKTB_INTERNAL_ERROR:
        return "internal error";
    }
    return "unknown status";
}

const char* mktb_last_error(void) { return lastError.c_str(); }

} // extern "C"
