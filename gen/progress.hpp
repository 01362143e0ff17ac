// progress.hpp - progress of long work on a terminal: phase, percent and ETA on one line that
// redraws itself; silent when stderr is not a terminal, so logs stay clean.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace mktb {

class Progress {
public:
    Progress();
    // Starts a phase of `total` units of work (0 when unknown).
    void phase(const std::string& name, std::uint64_t total);
    // Adds `units` of work done; safe from any thread, redraws at most ten times a second.
    void advance(std::uint64_t units);
    // Ends the line on a terminal.
    void finish();
    bool enabled() const { return enabled_; }

private:
    void draw();
    bool enabled_;
    std::string name_;
    std::uint64_t total_ = 0;
    std::atomic<std::uint64_t> done_ { 0 };
    std::atomic<std::int64_t> lastDraw_ { 0 };
    std::chrono::steady_clock::time_point start_;
};

} // namespace mktb
