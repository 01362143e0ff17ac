// engine.cpp - the fairy-stockfish oracle's UCI queries (see engine.hpp), over the program's
// child-process helper (app/uci/engine_process.hpp).
#include "engine.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace mktb::test {

std::string engine_path() {
#ifdef MKTB_FAIRY_STOCKFISH
    return MKTB_FAIRY_STOCKFISH;
#else
    return {};
#endif
}

Engine::Engine(const std::string& path, const std::string& variant) {
    if (path.empty() || access(path.c_str(), X_OK) != 0)
        throw std::runtime_error("fairy-stockfish not found at '" + path
            + "': run scripts/setup (it installs Debian's fairy-stockfish)");
    process_ = std::make_unique<cli::EngineProcess>(std::vector<std::string> { path });
    send("uci");
    while (read_line() != "uciok") { }
    send("setoption name UCI_Variant value " + variant);
    send("isready");
    while (read_line() != "readyok") { }
}

Engine::~Engine() = default; // the process says "quit" and is waited for

void Engine::send(const std::string& line) { process_->send(line); }

std::string Engine::read_line() {
    // A search or a perft may take minutes on a loaded machine: the wait is generous.
    const std::optional<std::string> line = process_->read_line(std::chrono::minutes(10));
    if (!line) throw std::runtime_error("fairy-stockfish closed its output");
    return *line;
}

Engine::Perft Engine::perft(const std::string& fen, int depth) {
    send("position fen " + fen);
    send("go perft " + std::to_string(depth));
    Perft r;
    for (;;) {
        const std::string line = read_line();
        if (line.starts_with("Nodes searched: ")) {
            r.nodes = std::stoull(line.substr(16));
            return r;
        }
        if (auto colon = line.find(": "); colon != std::string::npos && colon <= 6)
            r.divide[line.substr(0, colon)] = std::stoull(line.substr(colon + 2));
    }
}

void Engine::count_off() {
    const std::string ini = (std::filesystem::temp_directory_path()
        / ("mktb-makruknc-" + std::to_string(getpid()) + ".ini"))
                                .string();
    std::ofstream(ini) << "[makruknc:makruk]\ncountingRule = none\n";
    send("setoption name VariantPath value " + ini);
    send("setoption name UCI_Variant value makruknc");
    send("isready");
    while (read_line() != "readyok") { }
    std::filesystem::remove(ini); // read by the time the engine is ready
}

std::optional<int> Engine::mate_score(const std::string& fen, int nodes) {
    send("ucinewgame");
    send("position fen " + fen);
    send("go nodes " + std::to_string(nodes));
    std::optional<int> mate;
    for (std::string line = read_line(); !line.starts_with("bestmove"); line = read_line()) {
        if (line.find("bound") != std::string::npos) continue; // aspiration bounds prove nothing
        if (const auto at = line.find(" score mate "); at != std::string::npos)
            mate = std::stoi(line.substr(at + 12));
        else if (line.find(" score cp ") != std::string::npos)
            mate.reset();
    }
    return mate;
}

} // namespace mktb::test
