// main.cpp - mktb-mpi: `mktb gen` over the processes of an MPI run, each holding its share of
// the king pairs (docs/generator.md, "Over MPI"):
//   mpirun -np N build/mktb-mpi gen ENDING... --tables DIR [--memory BYTES_PER_RANK]
//   mpirun -np N build/mktb-mpi gen --game xiangqi (ENDING... | --set NAME) --tables DIR
// The options are mktb gen's; rank 0 prints, writes the tables and their statistics. A failure
// of one rank alone stops every rank (MPI_Abort): the others would wait for it forever.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "mpi_ranks.hpp"

namespace {

// Do all ranks reach this point within `limit`? A barrier that does not wait forever.
bool every_rank_within(std::chrono::milliseconds limit) {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    const auto end = std::chrono::steady_clock::now() + limit;
    for (int done = 0;;) {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return true;
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

int main(int argc, char** argv) {
    using namespace mktb::cli;
    int provided = 0;
    // Only the main thread calls MPI; oneTBB's workers never do.
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rc = kExitOk;
    try {
        mktb::MpiRanks ranks;
        const bool speaks = ranks.rank() == 0;
        Command gen = kGenCommand;
        gen.run = nullptr;
        const std::vector<std::string_view> args(argv + 1, argv + argc);
        const std::string usage = "usage: mpirun -np N mktb-mpi gen " + std::string(gen.usage)
            + "\n  mktb gen over N processes (on one machine or several, the tables' directory\n"
              "  shared), each holding its share of an ending's cells: --memory is per process;\n"
              "  a Xiangqi ending with both sides armed is made by rank 0 alone\n";
        const bool help = std::find(args.begin(), args.end(), "--help") != args.end()
            || std::find(args.begin(), args.end(), "-h") != args.end();
        if (help) {
            if (speaks) std::fputs(usage.c_str(), stdout);
        } else if (args.empty() || args[0] != "gen") {
            if (speaks && !args.empty())
                std::fprintf(
                    stderr, "mktb-mpi: unknown command '%s'\n", std::string(args[0]).c_str());
            if (speaks) std::fputs(usage.c_str(), stderr);
            rc = kExitBadInput;
        } else if (std::string error;
                   const auto parsed = parse(gen, { args.data() + 1, args.size() - 1 }, &error)) {
            rc = gen_over_ranks(*parsed, ranks, ranks.local_ranks());
        } else {
            if (speaks) std::fprintf(stderr, "mktb-mpi gen: %s\n", error.c_str());
            rc = kExitBadInput;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mktb-mpi: %s\n", e.what());
        rc = kExitFailure;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    // A failure every rank reached together (a refusal before anything started) ends normally,
    // each rank's words written; one rank's failure during a run may leave the others inside a
    // collective, waiting for it forever: then every rank is stopped.
    if (rc == kExitFailure && !every_rank_within(std::chrono::seconds(10)))
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}
