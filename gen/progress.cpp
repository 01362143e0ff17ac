// progress.cpp - see progress.hpp.
#include "progress.hpp"

#include <cstdio>
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

void Progress::draw() {
    const double elapsed
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (total_ == 0) {
        std::fprintf(stderr, "\r\033[K%s  %.1fs", name_.c_str(), elapsed);
    } else {
        const double f = std::min(1.0, double(done_.load()) / double(total_));
        const double eta = f > 0.01 ? elapsed / f - elapsed : 0;
        std::fprintf(stderr, "\r\033[K%s  %5.1f%%  ETA %.0fs", name_.c_str(), 100 * f, eta);
    }
    std::fflush(stderr);
}

void Progress::finish() {
    if (enabled_) std::fputs("\r\033[K", stderr);
}

} // namespace mktb
