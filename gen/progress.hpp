// progress.hpp - progress of long work on a terminal: phase, percent and ETA on one line that
// redraws itself; silent when stderr is not a terminal, so logs stay clean.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

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

    // A run of many jobs (`mktb gen --men 5`): the line starts with the job's number, the share
    // of the whole run's work done and the run's ETA. `work` is the jobs' weights; the ETA is
    // measured on the jobs done in this run (skipped ones count as done, not as speed).
    void start_run(std::vector<double> work);
    void start_job(std::size_t job); // job `job` starts now
    void skip_job(std::size_t job); // job `job` was already done
    bool enabled() const { return enabled_; }

private:
    void draw();
    bool enabled_;
    std::string name_;
    std::uint64_t total_ = 0;
    std::atomic<std::uint64_t> done_ { 0 };
    std::atomic<std::int64_t> lastDraw_ { 0 };
    std::chrono::steady_clock::time_point start_;
    std::vector<double> runWork_;
    double runDone_ = 0, runSkipped_ = 0, runTotal_ = 0;
    std::size_t job_ = 0;
    std::chrono::steady_clock::time_point runStart_;
};

} // namespace mktb
