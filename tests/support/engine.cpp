// engine.cpp - fork/exec and pipe plumbing for the fairy-stockfish oracle (see engine.hpp).
#include "engine.hpp"

#include <fstream>

#include <filesystem>

#include <csignal>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace mktb::test {

std::string engine_path() {
#ifdef MKTB_FAIRY_STOCKFISH
    return MKTB_FAIRY_STOCKFISH;
#else
    return {};
#endif
}

Engine::Engine(const std::string& path) {
    if (path.empty() || access(path.c_str(), X_OK) != 0)
        throw std::runtime_error("fairy-stockfish not found at '" + path
            + "': run scripts/setup (it installs Debian's fairy-stockfish)");
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe() failed");
    std::signal(SIGPIPE, SIG_IGN);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork() failed");
    if (pid_ == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
    send("uci");
    while (read_line() != "uciok") { }
    send("setoption name UCI_Variant value makruk");
    send("isready");
    while (read_line() != "readyok") { }
}

Engine::~Engine() {
    if (pid_ > 0) {
        send("quit");
        close(to_);
        close(from_);
        waitpid(pid_, nullptr, 0);
    }
}

void Engine::send(const std::string& line) {
    const std::string s = line + "\n";
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = write(to_, s.data() + done, s.size() - done);
        if (n <= 0) return;
        done += std::size_t(n);
    }
}

std::string Engine::read_line() {
    for (;;) {
        if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        char buf[4096];
        const ssize_t n = read(from_, buf, sizeof buf);
        if (n <= 0) throw std::runtime_error("fairy-stockfish closed its output");
        buffer_.append(buf, std::size_t(n));
    }
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
        if (auto colon = line.find(": "); colon != std::string::npos && colon <= 5)
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
