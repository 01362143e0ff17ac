// cmd_uci.cpp - `mktb uci`: a UCI engine for Makruk and Xiangqi (UCI_Variant) that plays from
// the tables where they cover the position and hands every other position to another engine
// (Fairy-Stockfish by default), passing its output through. It follows the count through
// `position ... moves ...` as the rules do (docs/rules.md §3-4), so its Makruk answer is the one
// under the count running in the game; its Xiangqi answer follows the perpetual-check rule
// where both sides are armed (docs/rules-xiangqi.md §5).
//
// Threads: the main thread reads the GUI's commands and answers table positions itself; one
// thread copies the engine's output to ours. Every line we write goes through say().
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"
#include "engine_process.hpp"
#include "mktb/movegen.hpp"
#include "table_sets.hpp"
#include "xiangqi_answer.hpp"

namespace mktb::cli {

namespace {

std::mutex outputMutex;

void say(const std::string& line) {
    std::lock_guard lock(outputMutex);
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A Xiangqi move the tables choose, with its line and score.
struct XChoice {
    xq::Move move = xq::MOVE_NONE;
    std::vector<xq::Move> pv;
    std::string score; // "mate 12", "mate -7", "cp 0", "cp 5000" (won only by the rule)
};

// A move the tables choose, with the line that follows it and its score.
struct Choice {
    Move move = MOVE_NONE;
    std::vector<Move> pv;
    std::string score; // "mate 12", "mate -7", "cp 0"
};

class Uci {
public:
    Uci(TableSets tables, std::vector<std::string> engineArgs)
        : tables_(std::move(tables)) {
        if (!engineArgs.empty()) start_engine(engineArgs);
    }

    ~Uci() {
        // The reader stops within one read timeout; the engine goes only after it has.
        stopping_ = true;
        if (engine_) engine_->send("quit");
        if (reader_.joinable()) reader_.join();
        engine_.reset();
    }

    // Reads commands until "quit" or the end of input.
    void run() {
        std::string line;
        while (std::getline(std::cin, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!command(line)) break;
        }
    }

private:
    void start_engine(const std::vector<std::string>& args) {
        try {
            engine_ = std::make_unique<EngineProcess>(args);
            std::vector<std::string> lines;
            engine_->send("uci");
            if (!engine_->wait_for("uciok", std::chrono::seconds(10), &lines))
                throw std::runtime_error(engine_->program() + " did not answer uci with uciok");
            for (const std::string& l : lines) {
                if (l.starts_with("id name "))
                    engineName_ = l.substr(8);
                else if (l.starts_with("option name "))
                    engineOptions_.push_back(l);
            }
            engine_->send("setoption name UCI_Variant value makruk");
            // An engine that probes mktb's tables itself (Fairy-Stockfish with
            // engines/fairy-stockfish/mktb.patch) reads the directory of the default counting
            // rules, the ones its probes assume, so that the wrapper and the engine agree.
            if (const TableSet* set = tables_.find(CountRules {}); set && has_option("MktbPath"))
                engine_->send("setoption name MktbPath value " + set->dir);
            engine_->send("isready");
            if (!engine_->wait_for("readyok", std::chrono::seconds(10)))
                throw std::runtime_error(engine_->program() + " did not answer isready");
        } catch (const std::exception& e) {
            engineError_ = e.what();
            std::fprintf(
                stderr, "mktb uci: no engine for positions outside the tables: %s\n", e.what());
            engine_.reset();
            return;
        }
        reader_ = std::thread([this] {
            while (!stopping_ && !engine_->closed())
                if (std::optional<std::string> l
                    = engine_->read_line(std::chrono::milliseconds(100)))
                    say(*l);
        });
    }

    // One command; false for quit.
    bool command(const std::string& line) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "quit") return false;
        if (cmd == "uci")
            uci();
        else if (cmd == "isready") {
            if (!engine_ || !engine_->send("isready")) say("readyok"); // else the engine answers
        } else if (cmd == "ucinewgame")
            forward(line);
        else if (cmd == "setoption")
            setoption(line);
        else if (cmd == "position")
            position(line);
        else if (cmd == "go")
            go(line);
        else if (cmd == "stop")
            stop(line);
        else if (cmd == "ponderhit")
            ponderhit(line);
        // anything else is ignored, as UCI asks
        return true;
    }

    void forward(const std::string& line) {
        if (engine_) engine_->send(line);
    }

    bool has_option(const std::string& name) const {
        return std::any_of(engineOptions_.begin(), engineOptions_.end(),
            [&](const std::string& o) { return o.starts_with("option name " + name + " "); });
    }

    void uci() {
        say("id name mktb " MKTB_VERSION_TEXT " (Makruk tablebases)"
            + (engineName_.empty() ? std::string() : " + " + engineName_));
        say("id author the mktb authors");
        // The engine's options, less what this wrapper does not honour: the Syzygy options
        // (chess tables; the Makruk tables are ours), and UCI_Variant's default, which is
        // makruk here whatever the engine's is.
        bool multipv = false, variant = false;
        for (const std::string& o : engineOptions_) {
            // MktbPath: set by this wrapper (start_engine), to its own tables.
            if (o.starts_with("option name Syzygy") || o.starts_with("option name MktbPath "))
                continue;
            multipv |= o.starts_with("option name MultiPV ");
            if (o.starts_with("option name UCI_Variant ")) {
                variant = true;
                const std::size_t d = o.find(" default "), end = o.find(' ', d + 9);
                if (d != std::string::npos && end != std::string::npos)
                    say(o.substr(0, d) + " default makruk" + o.substr(end));
                continue;
            }
            say(o);
        }
        if (!multipv) say("option name MultiPV type spin default 1 min 1 max 256");
        if (!variant)
            say("option name UCI_Variant type combo default makruk var makruk var xiangqi");
        for (const RuleOptionInfo& o : kRuleOptions)
            say("option name " + std::string(o.name) + " type combo default "
                + std::string(o.default_value) + " var " + std::string(o.default_value) + " var "
                + std::string(o.alternative));
        std::string sets;
        for (const xq::RuleSetName& r : xq::kRuleSets) sets += " var " + std::string(r.name);
        say("option name XiangqiRules type combo default "
            + std::string(xq::rule_set(xq::kDefaultRuleSet).name) + sets);
        say("uciok");
        if (!engineError_.empty())
            say("info string no engine for positions outside the tables: " + engineError_);
        if (!tables_.find(rules_))
            say("info string no tables built under " + describe(rules_)
                + "; served: " + tables_.served());
    }

    // setoption name NAME [value VALUE]: the counting options are ours; MultiPV and
    // UCI_Variant are ours and the engine's; everything else is the engine's.
    void setoption(const std::string& line) {
        const std::size_t n = line.find(" name ");
        if (n == std::string::npos) return say("info string setoption without a name: " + line);
        const std::size_t v = line.find(" value ", n);
        const std::string name
            = line.substr(n + 6, v == std::string::npos ? std::string::npos : v - n - 6);
        const std::string value = v == std::string::npos ? "" : line.substr(v + 7);
        if (find_rule_option(name)) {
            if (std::string error = set_rule_option(rules_, name, value); !error.empty())
                return say("info string " + error);
            if (!tables_.find(rules_))
                say("info string no tables built under " + describe(rules_)
                    + ": every position goes to the engine");
            return;
        }
        if (lower(name) == "xiangqirules") { // ours alone: the engine plays its own rules
            if (!xq::parse_rule_set(lower(value), &xiangqiRules_))
                say("info string XiangqiRules takes " + xq::rule_set_choices() + ", not '" + value
                    + "'");
            return;
        }
        if (lower(name) == "multipv") {
            try {
                multipv_ = std::clamp(std::stoi(value), 1, 256);
            } catch (const std::exception&) {
                say("info string MultiPV takes a number, not '" + value + "'");
            }
        } else if (lower(name) == "uci_variant") {
            const bool wasMakruk = makruk_, wasXiangqi = xiangqi_;
            makruk_ = lower(value) == "makruk";
            xiangqi_ = lower(value) == "xiangqi";
            if (!makruk_ && !xiangqi_)
                say("info string the tables are Makruk's and Xiangqi's: " + value
                    + " goes to the engine");
            // Another variant starts from its own start position, as the engine's does: never
            // the last variant's board read as this one's.
            if (makruk_ != wasMakruk || xiangqi_ != wasXiangqi) position("position startpos");
        }
        forward(line);
    }

    // position startpos|fen FEN [moves M...]: the position and the count running in it.
    void position(const std::string& line) {
        positionLine_ = line;
        valid_ = false;
        if (xiangqi_) return xiangqi_position(line);
        if (!makruk_) return; // another variant: the engine's business
        std::istringstream in(line);
        std::string word, fen;
        if (!position_fen(in, word, fen, std::string(kStartFen))) return;
        try {
            pos_ = Position::from_fen(fen);
        } catch (const FenError& e) {
            return say("info string bad FEN in position: " + std::string(e.what()));
        }
        count_to_follow("", pos_, rules_, count_);
        if (word == "moves")
            while (in >> word) {
                const Move m = parse_uci_move(pos_, word);
                if (m == MOVE_NONE)
                    return say("info string illegal move " + word + " in " + pos_.fen());
                Position next = pos_;
                next.do_move(m);
                count_ = count_after_move(pos_, next, count_, rules_);
                next.set_count_state(count_);
                pos_ = next;
            }
        valid_ = true;
    }

    // The FEN of "position startpos|fen FEN [moves ...]" read from `in` (`start` for startpos),
    // `word` left at "moves" when moves follow; false (said) for anything else.
    static bool position_fen(
        std::istringstream& in, std::string& word, std::string& fen, const std::string& start) {
        in >> word >> word;
        if (word == "startpos") {
            fen = start;
            in >> word;
        } else if (word == "fen") {
            while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
        } else {
            say("info string position takes startpos or fen, not '" + word + "'");
            return false;
        }
        return true;
    }

    // Xiangqi's position startpos|fen FEN [moves M...].
    void xiangqi_position(const std::string& line) {
        static constexpr const char* kXiangqiStart
            = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        std::istringstream in(line);
        std::string word, fen;
        if (!position_fen(in, word, fen, kXiangqiStart)) return;
        try {
            xpos_ = xq::Position::from_fen(fen);
        } catch (const FenError& e) {
            return say("info string bad Xiangqi FEN in position: " + std::string(e.what()));
        }
        if (word == "moves")
            while (in >> word) {
                const xq::Move m = xq::parse_uci_move(xpos_, word);
                if (m == xq::MOVE_NONE)
                    return say("info string illegal move " + word + " in " + xpos_.fen());
                xpos_.do_move(m);
            }
        valid_ = true;
    }

    // Xiangqi from the tables: every move with its line and score, best first (the result
    // under the repetition rules, then the plain distance). A mate score only where a mate is
    // forced (the plain distance); a result only the rules decide scores as a decisive
    // advantage less its rule's distance (docs/rules-xiangqi.md §5c), never as a mate, with the
    // line to the repetition; nullopt when the tables do not cover the position.
    std::optional<std::vector<XChoice>> xiangqi_choose() const {
        const xq::Material m = xq::Material::of(xpos_);
        const TableSet* set = valid_ ? tables_.find(m, xiangqiRules_) : nullptr;
        // A set of other rules answers only where they are one (an armless side).
        if (!set
            || (set->xiangqi_rules != xiangqiRules_ && !m.armless(xq::RED) && !m.armless(BLACK)))
            return std::nullopt;
        const std::optional<XAnswer> a = xiangqi_answer(*set->prober, xpos_);
        if (!a) return std::nullopt;
        std::vector<XChoice> out;
        for (const XMove& x : a->moves) {
            XChoice c { x.move, { x.move }, "cp 0" };
            xq::Position next = xpos_;
            next.do_move(x.move);
            if (!x.value.is_draw()) {
                for (xq::Move r : xiangqi_line(*set->prober, next)) c.pv.push_back(r);
                const int plies = int(c.pv.size());
                c.score = x.value.is_win() ? "mate " + std::to_string((plies + 1) / 2)
                                           : "mate -" + std::to_string(plies / 2);
            } else if (x.result) {
                // Below every mate, nearer the shorter the rule's distance (the move included).
                for (xq::Move r : xiangqi_rule_line(*set->prober, next).moves) c.pv.push_back(r);
                const int plies = x.rule_plies < 0 ? 0 : x.rule_plies + 1;
                c.score = "cp " + std::to_string(x.result > 0 ? 5000 - plies : plies - 5000);
            }
            out.push_back(c);
        }
        return out;
    }

    // A position the tables do not answer: the engine's (`noEngine` said when there is none).
    void delegate(const std::string& line, const std::string& noEngine) {
        if (!engine_) {
            say(noEngine);
            return say("bestmove (none)");
        }
        delegated_ = true;
        if (!engine_->send(positionLine_) || !engine_->send(line)) {
            say("info string " + engine_->program() + " has gone away");
            say("bestmove (none)");
        }
    }

    // The tables' choices as info lines (MultiPV of them) and the best move, held for stop
    // when `wait` (go infinite, go ponder).
    template<class Choices, class ToUci>
    void report(const Choices& choices, bool wait, ToUci to_uci) {
        for (std::size_t i = 0; i < std::min(std::size_t(multipv_), choices.size()); ++i) {
            const auto& c = choices[i];
            std::string text = "info depth " + std::to_string(c.pv.size()) + " multipv "
                + std::to_string(i + 1) + " score " + c.score + " nodes 0 time 0 pv";
            for (const auto m : c.pv) text.append(" ").append(to_uci(m));
            say(text);
        }
        const std::string best
            = choices.empty() ? "bestmove (none)" : "bestmove " + to_uci(choices.front().move);
        if (wait)
            pending_ = best;
        else
            say(best);
    }

    void xiangqi_go(bool wait, const std::string& line) {
        std::optional<std::vector<XChoice>> choices;
        try {
            choices = xiangqi_choose();
        } catch (const TableError& e) {
            say(std::string("info string damaged table, the engine answers: ") + e.what());
        }
        if (!choices && !valid_) {
            say("info string no valid position to search");
            return say("bestmove (none)");
        }
        if (!choices)
            return delegate(line,
                "info string no Xiangqi table for " + xq::Material::of(xpos_).canonical().name()
                    + ", and no engine");
        delegated_ = false;
        say("info string mktb Xiangqi tables"
            + std::string(choices->empty() || choices->front().score != "cp 5000"
                    ? ""
                    : ": won under the perpetual-check rule (the opponent can hold only by "
                      "checking forever)"));
        report(*choices, wait, [](xq::Move m) { return xq::move_to_uci(m); });
    }

    // The tables' moves for the current position, best first, or nullopt when they do not
    // cover it (another variant, other rules, a material or a conversion without a table).
    std::optional<std::vector<Choice>> choose() const {
        const TableSet* set = makruk_ && valid_ ? tables_.find(rules_) : nullptr;
        if (!set) return std::nullopt;
        const Prober& prober = *set->prober;
        const std::optional<std::vector<RankedMove>> moves = prober.rank_root(pos_, count_);
        if (!moves) return std::nullopt;
        std::vector<RankedMove> order = *moves;
        // Drawn: keep the draw, preferring the moves after which most of the opponent's
        // replies lose under the count (problems to solve), then the best pure value.
        if (!order.empty() && order.front().counted.result == CountedValue::Result::Draw) {
            std::vector<std::pair<int, RankedMove>> scored;
            for (const RankedMove& m : order) {
                if (m.counted.result != CountedValue::Result::Draw) continue;
                Position next = pos_;
                next.do_move(m.move);
                const CountState c = count_after_move(pos_, next, count_, rules_);
                int traps = 0;
                if (const auto replies = prober.rank_root(next, c))
                    for (const RankedMove& r : *replies)
                        traps += r.counted.result == CountedValue::Result::Loss;
                scored.push_back({ traps, m });
            }
            std::stable_sort(scored.begin(), scored.end(),
                [](const auto& a, const auto& b) { return a.first > b.first; });
            std::vector<RankedMove> draws;
            for (const auto& [traps, m] : scored) draws.push_back(m);
            for (const RankedMove& m : order)
                if (m.counted.result != CountedValue::Result::Draw) draws.push_back(m);
            order = draws;
        }
        std::vector<Choice> choices;
        for (const RankedMove& m : order) {
            Choice c { m.move, { m.move }, "cp 0" };
            Position next = pos_;
            next.do_move(m.move);
            const CountState after = count_after_move(pos_, next, count_, rules_);
            if (m.counted.result != CountedValue::Result::Draw) {
                for (Move r : prober.line(next, after)) c.pv.push_back(r);
                const int plies = int(c.pv.size());
                c.score = m.counted.result == CountedValue::Result::Win
                    ? "mate " + std::to_string((plies + 1) / 2)
                    : "mate -" + std::to_string(plies / 2);
            }
            choices.push_back(c);
        }
        return choices;
    }

    void go(const std::string& line) {
        std::istringstream in(line);
        bool wait = false; // go infinite / go ponder: the best move waits for stop / ponderhit
        for (std::string w; in >> w;) wait |= w == "infinite" || w == "ponder";
        if (xiangqi_) return xiangqi_go(wait, line);
        std::optional<std::vector<Choice>> choices;
        try {
            choices = choose();
        } catch (const TableError& e) {
            say(std::string("info string damaged table, the engine answers: ") + e.what());
        }
        if (!choices && makruk_ && !valid_) {
            say("info string no valid position to search");
            return say("bestmove (none)");
        }
        if (!choices) {
            return delegate(line,
                makruk_ ? "info string no table for " + Material::of(pos_).canonical().name()
                        + " under these rules, and no engine"
                        : "info string no engine for this variant");
        }
        delegated_ = false;
        const TableSet& set = *tables_.find(rules_);
        const Value pure = *set.prober->dtm(pos_);
        const CountedValue counted = *set.prober->counted(pos_, count_);
        say("info string mktb tables: " + verdict(*set.prober, pos_, pure, counted, count_));
        report(*choices, wait, [](Move m) { return move_to_uci(m); });
    }

    void stop(const std::string& line) {
        if (pending_) {
            say(*pending_);
            pending_.reset();
        } else if (delegated_) {
            forward(line);
        }
    }

    void ponderhit(const std::string& line) {
        if (pending_)
            stop(line);
        else
            forward(line);
    }

    TableSets tables_;
    std::unique_ptr<EngineProcess> engine_;
    std::thread reader_;
    std::atomic<bool> stopping_ { false };
    std::string engineName_, engineError_;
    std::vector<std::string> engineOptions_;
    CountRules rules_;
    xq::RuleSet xiangqiRules_ = xq::kDefaultRuleSet; // XiangqiRules
    bool makruk_ = true, xiangqi_ = false;
    xq::Position xpos_;
    int multipv_ = 1;
    std::string positionLine_;
    bool valid_ = false;
    Position pos_;
    CountState count_;
    bool delegated_ = false;
    std::optional<std::string> pending_;
};

int uci_command(const Args& a) {
    const std::vector<std::string>& dirs = a.texts("--tables");
    std::vector<std::string> engine { "fairy-stockfish" };
    if (a.has("--engine")) engine = a.texts("--engine"); // the rest: the engine and its arguments
    if (engine.front() == "none") engine.clear();
    TableSets tables;
    if (const int code = open_tables("uci", dirs, tables)) return code;
    Uci(std::move(tables), engine).run();
    return kExitOk;
}

} // namespace

const Command kUciCommand {
    .name = "uci",
    .usage = "[--tables DIR]... [--engine PATH [ARGS...] | --engine none]",
    .summary = "a UCI engine for Makruk (and Xiangqi with\n"
               "UCI_Variant xiangqi): table positions answered\n"
               "from the tables (under the count the game\n"
               "runs), others handed to the engine\n"
               "(default: fairy-stockfish)",
    .options = { { "--tables", "DIR", "a directory of tables, one per rule set", Option::Kind::Text,
                     0, 0, true },
        { "--engine", "PATH [ARGS...]", "the engine for other positions (the rest of the line)",
            Option::Kind::Rest } },
    .run = uci_command,
};

} // namespace mktb::cli
