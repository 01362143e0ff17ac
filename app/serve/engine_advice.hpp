// engine_advice.hpp - a reference engine's word on a position beyond the tables, for `mktb serve
// --engine`: its best move and evaluation under the count, marked as the engine's, never mixed
// with the tables' answers. One engine process, one position at a time: a request that finds it
// busy is answered without it rather than queued behind it.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mktb/position.hpp"
#include "uci/engine_process.hpp"

namespace mktb::cli {

class EngineAdvice {
public:
    // Starts `argv` and sets it to Makruk; throws std::runtime_error naming the engine and what
    // failed (cannot start, no uciok, no readyok within 10 s).
    EngineAdvice(const std::vector<std::string>& argv, std::chrono::milliseconds think);

    // {"engine", "bestmove", "score": {"cp"|"mate"}, "depth", "movetime_ms"} for `pos` (its FEN
    // carrying the count), the score from the side to move's view; {"engine", "busy": true} when
    // another request holds the engine; {"engine", "failed": WHY} when it gave no best move
    // within its time and kGrace (it is then stopped, and not asked again); nullopt when it had
    // gone away before.
    std::optional<nlohmann::ordered_json> advise(const Position& pos);

    // What an engine may take beyond its thinking time before it is given up.
    static constexpr std::chrono::milliseconds kGrace { 3000 };

private:
    std::mutex mutex_;
    std::unique_ptr<EngineProcess> engine_;
    std::string name_;
    std::chrono::milliseconds think_;
};

} // namespace mktb::cli
