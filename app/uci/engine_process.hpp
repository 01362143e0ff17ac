// engine_process.hpp - another UCI engine as a child process: started with its arguments, talked
// to line by line through pipes, read with a timeout, stopped when dropped. For `mktb uci` (the
// engine it hands positions outside the tables to) and `mktb match` (the two players).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mktb::cli {

class EngineProcess {
public:
    // Starts argv[0] (looked up in PATH and /usr/games when it has no '/') with argv[1...].
    // Throws std::runtime_error naming the program and the reason when it cannot be started.
    explicit EngineProcess(const std::vector<std::string>& argv);
    // Sends "quit", waits a moment, then kills the process if it is still there.
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    const std::string& program() const { return program_; }
    // False once a write failed (the engine has gone away).
    bool send(std::string_view line);
    // The next line the engine writes, without its newline; nullopt when none comes within
    // `timeout` or the engine has closed its output.
    std::optional<std::string> read_line(std::chrono::milliseconds timeout);
    // Reads lines until one starts with `prefix` (that line), or nullopt (timeout, gone away);
    // every line read before it is appended to `seen` when given.
    std::optional<std::string> wait_for(std::string_view prefix, std::chrono::milliseconds timeout,
        std::vector<std::string>* seen = nullptr);
    bool closed() const { return eof_; }

private:
    std::string program_;
    int pid_ = -1;
    int to_ = -1, from_ = -1;
    std::string buffer_;
    bool eof_ = false;
};

// The program to run for "fairy-stockfish": its path when found in PATH or /usr/games, else
// the name unchanged (starting it then fails with a clear message).
std::string find_program(const std::string& name);

} // namespace mktb::cli
