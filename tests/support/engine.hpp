// engine.hpp - a minimal UCI client that drives Debian's fairy-stockfish, our independent oracle
// (docs/rules.md §6). One engine process serves many queries; the tests never trust our own output
// alone.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "uci/engine_process.hpp"

namespace mktb::test {

class Engine {
public:
    // Starts `path` (UCI_Variant `variant`: makruk, or xiangqi). Throws std::runtime_error if
    // it cannot be started.
    explicit Engine(const std::string& path, const std::string& variant = "makruk");
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // `go perft depth` on a FEN: the per-move counts (UCI move -> nodes) and the total.
    struct Perft {
        std::map<std::string, std::uint64_t> divide;
        std::uint64_t nodes = 0;
    };
    Perft perft(const std::string& fen, int depth);

    // A fixed-node search from a fresh hash (count states are not part of its hash key): the
    // last exact "score mate M" it reported, if its last exact score was a mate (M > 0: the
    // side to move mates in M moves; M < 0: it is mated in -M).
    std::optional<int> mate_score(const std::string& fen, int nodes);
    // Switches the count off (a variant [makruknc:makruk] with countingRule = none, loaded from
    // an ini file, docs/rules.md §6), so that mate scores prove pure distances to mate.
    void count_off();

    void send(const std::string& line);
    std::string read_line(); // throws when the engine has gone away

private:
    std::unique_ptr<cli::EngineProcess> process_;
};

// The engine's path from the build (FAIRY_STOCKFISH), or empty if CMake did not find it.
std::string engine_path();

} // namespace mktb::test
