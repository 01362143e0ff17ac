// engine_advice.cpp - the reference engine beyond the tables (see engine_advice.hpp).
#include "engine_advice.hpp"

#include <sstream>
#include <stdexcept>

namespace mktb::cli {

EngineAdvice::EngineAdvice(const std::vector<std::string>& argv, std::chrono::milliseconds think)
    : engine_(std::make_unique<EngineProcess>(argv))
    , name_(engine_->program())
    , think_(think) {
    std::vector<std::string> lines;
    engine_->send("uci");
    if (!engine_->wait_for("uciok", std::chrono::seconds(10), &lines))
        throw std::runtime_error(name_ + " did not answer uci with uciok within 10 s");
    for (const std::string& l : lines)
        if (l.starts_with("id name ")) name_ = l.substr(8);
    engine_->send("setoption name UCI_Variant value makruk");
    engine_->send("isready");
    if (!engine_->wait_for("readyok", std::chrono::seconds(10)))
        throw std::runtime_error(name_ + " did not answer isready within 10 s");
}

std::optional<nlohmann::ordered_json> EngineAdvice::advise(const Position& pos) {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock) return nlohmann::ordered_json { { "engine", name_ }, { "busy", true } };
    if (!engine_ || engine_->closed()) return std::nullopt;
    if (!engine_->send("ucinewgame") || !engine_->send("position fen " + pos.fen())
        || !engine_->send("go movetime " + std::to_string(think_.count())))
        return std::nullopt;
    nlohmann::ordered_json score;
    int depth = 0;
    // One deadline for the whole answer: an engine that keeps talking (info lines) without a
    // best move must not hold the request, nor a server asked to stop.
    const auto deadline = std::chrono::steady_clock::now() + think_ + kGrace;
    // The last "info ... score" line before "bestmove" is the engine's answer.
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        const std::optional<std::string> line
            = left.count() > 0 ? engine_->read_line(left) : std::nullopt;
        if (!line) {
            const bool gone = engine_->closed();
            engine_.reset(); // silent or late past its time: not asked again
            return nlohmann::ordered_json { { "engine", name_ },
                { "failed",
                    gone ? "the engine has gone away"
                         : "the engine gave no best move within "
                            + std::to_string((think_ + kGrace).count())
                            + " ms and is not asked again" } };
        }
        std::istringstream words(*line);
        std::string word;
        words >> word;
        if (word == "bestmove") {
            std::string move;
            words >> move;
            if (move.empty() || move == "(none)") move.clear();
            return nlohmann::ordered_json { { "engine", name_ },
                { "bestmove",
                    move.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(move) },
                { "score", score }, { "depth", depth },
                { "movetime_ms", std::int64_t(think_.count()) } };
        }
        if (word != "info") continue;
        while (words >> word) {
            if (word == "depth") words >> depth;
            if (word == "score") {
                std::string kind;
                int v = 0;
                if (words >> kind >> v && (kind == "cp" || kind == "mate")) score = { { kind, v } };
            }
        }
    }
}

} // namespace mktb::cli
