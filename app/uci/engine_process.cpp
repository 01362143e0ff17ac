// engine_process.cpp - fork/exec and pipe plumbing for child UCI engines (see engine_process.hpp).
#include "engine_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace mktb::cli {

std::string find_program(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "";
    dirs += ":/usr/games";
    for (std::size_t start = 0; start <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string candidate = dirs.substr(start, end - start) + "/" + name;
        if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return name;
}

EngineProcess::EngineProcess(const std::vector<std::string>& argv) {
    if (argv.empty()) throw std::runtime_error("no engine program given");
    program_ = find_program(argv[0]);
    // A write to an engine that has died must fail with EPIPE, not end this process.
    std::signal(SIGPIPE, SIG_IGN);
    int in[2], out[2], status[2]; // engine's stdin, its stdout, exec's outcome
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create pipes: ") + std::strerror(errno));
    std::vector<char*> args;
    std::vector<std::string> copy = argv;
    copy[0] = program_;
    for (std::string& a : copy) args.push_back(a.data());
    args.push_back(nullptr);
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
    if (pid_ == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        execv(args[0], args.data());
        const int error = errno; // exec failed: tell the parent why
        [[maybe_unused]] const auto n = write(status[1], &error, sizeof error);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(status[1]);
    to_ = in[1];
    from_ = out[0];
    int error = 0;
    const ssize_t n = read(status[0], &error, sizeof error); // 0: exec succeeded (CLOEXEC)
    close(status[0]);
    if (n > 0) {
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
        close(to_);
        close(from_);
        throw std::runtime_error("cannot start " + program_ + ": " + std::strerror(error));
    }
}

EngineProcess::~EngineProcess() {
    if (pid_ < 0) return;
    send("quit");
    close(to_);
    for (int i = 0; i < 50; ++i) { // up to half a second to leave by itself
        if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
            close(from_);
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    close(from_);
}

bool EngineProcess::send(std::string_view line) {
    std::string text(line);
    text += '\n';
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = write(to_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

std::optional<std::string> EngineProcess::read_line(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (const std::size_t nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (eof_) return std::nullopt;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd p { from_, POLLIN, 0 };
        const int ready = poll(&p, 1, int(left.count()));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return std::nullopt;
        char chunk[4096];
        const ssize_t n = read(from_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            eof_ = true;
        else
            buffer_.append(chunk, std::size_t(n));
        // An engine that writes without end of line: what it wrote so far is one line.
        if (constexpr std::size_t kLongest = 1 << 20;
            buffer_.size() > kLongest && buffer_.find('\n') == std::string::npos) {
            std::string line = std::move(buffer_);
            buffer_.clear();
            return line;
        }
    }
}

std::optional<std::string> EngineProcess::wait_for(
    std::string_view prefix, std::chrono::milliseconds timeout, std::vector<std::string>* seen) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t kept = 0;
    for (;;) {
        // The deadline holds even for an engine that talks without end (its lines kept up to
        // 1 MB in all).
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        std::optional<std::string> line = read_line(left);
        if (!line) return std::nullopt;
        if (line->starts_with(prefix)) return line;
        if (seen && (kept += line->size()) <= (std::size_t(1) << 20)) seen->push_back(*line);
    }
}

} // namespace mktb::cli
