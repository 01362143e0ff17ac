// consumer.cpp - probes one position through the installed headers and library, with both the
// C++ and the C API: K+Ruea vs K, Rh8 mates at once (hand-checked).
#include <cstdio>
#include <mktb/probe.h>
#include <mktb/probe.hpp>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    const mktb::Prober prober(argv[1]);
    const auto pos = mktb::Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1");
    const auto v = prober.dtm(pos);
    mktb_tablebase* tb = nullptr;
    mktb_position c;
    mktb_dtm dtm {};
    const bool ok = v && v->plies == 1 && mktb_open(argv[1], nullptr, &tb) == MKTB_OK
        && mktb_position_from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", &c) == MKTB_OK
        && mktb_probe_dtm(tb, &c, &dtm) == MKTB_OK && dtm.plies == 1;
    mktb_close(tb);
    std::printf("consumer: %s\n", ok ? "mate in 1 ply, as expected" : "WRONG ANSWER");
    return ok ? 0 : 1;
}
