// progress.cpp - see progress.hpp.
#include "progress.hpp"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace mktb {

Progress::Progress()
    : enabled_(isatty(STDERR_FILENO) && !std::getenv("MKTB_NO_PROGRESS")) { }

void Progress::phase(const std::string& name, std::uint64_t total) {
    name_ = name;
    total_ = total;
    done_ = 0;
    lastDraw_ = 0;
    start_ = std::chrono::steady_clock::now();
    if (enabled_) draw();
}

void Progress::advance(std::uint64_t units) {
    done_.fetch_add(units, std::memory_order_relaxed);
    if (!enabled_) return;
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
                         .count();
    std::int64_t last = lastDraw_.load(std::memory_order_relaxed);
    if (now - last >= 100 && lastDraw_.compare_exchange_strong(last, now)) draw();
}

void Progress::start_run(std::vector<double> work) {
    runWork_ = std::move(work);
    runDone_ = runSkipped_ = runTotal_ = 0;
    for (double w : runWork_) runTotal_ += w;
    runStart_ = std::chrono::steady_clock::now();
}

void Progress::start_job(std::size_t job) {
    job_ = job;
    runDone_ = 0; // every job before this one is done or was skipped
    for (std::size_t j = 0; j < job && j < runWork_.size(); ++j) runDone_ += runWork_[j];
}

void Progress::skip_job(std::size_t job) {
    if (job < runWork_.size()) runSkipped_ += runWork_[job];
}

// "[3/142, 12% of the work, ETA 1h05m] " while a run is going on.
static std::string run_prefix(
    std::size_t job, std::size_t jobs, double done, double skipped, double total, double elapsed) {
    char buf[96];
    const double measured = done - skipped;
    if (measured > 0 && elapsed > 1) {
        const double eta = elapsed / measured * (total - done);
        const int h = int(eta / 3600), m = int(eta / 60) % 60, sec = int(eta) % 60;
        std::snprintf(buf, sizeof buf, "[%zu/%zu, %.0f%% of the work, ETA %dh%02dm%02ds] ", job + 1,
            jobs, 100 * done / total, h, m, sec);
    } else {
        std::snprintf(buf, sizeof buf, "[%zu/%zu, %.0f%% of the work] ", job + 1, jobs,
            total > 0 ? 100 * done / total : 0.0);
    }
    return buf;
}

void Progress::draw() {
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (!runWork_.empty())
        std::fputs(run_prefix(job_, runWork_.size(), runDone_, runSkipped_, runTotal_,
                       std::chrono::duration<double>(now - runStart_).count())
                       .insert(0, "\r\033[K")
                       .c_str(),
            stderr);
    else
        std::fputs("\r\033[K", stderr);
    if (total_ == 0) {
        std::fprintf(stderr, "%s  %.1fs", name_.c_str(), elapsed);
    } else {
        const double f = std::min(1.0, double(done_.load()) / double(total_));
        const double eta = f > 0.01 ? elapsed / f - elapsed : 0;
        std::fprintf(stderr, "%s  %5.1f%%  ETA %.0fs", name_.c_str(), 100 * f, eta);
    }
    std::fflush(stderr);
}

void Progress::finish() {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

} // namespace mktb
