// mpi_ranks.hpp - the generator's Ranks (gen/ranks.hpp) over MPI_COMM_WORLD: Open MPI carries
// the level loop's lists, the reductions and the file's blocks between the processes of an
// `mpirun` (on one machine or several). Errors in MPI abort the whole run (MPI's default handler:
// one rank cannot fail alone while the others wait for it).
#pragma once

#include <mpi.h>

#include "ranks.hpp"

namespace mktb {

class MpiRanks final : public Ranks {
public:
    MpiRanks();
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    void reduce(std::span<std::uint64_t> values, Op op) override;
    std::vector<Words> exchange(std::vector<Words> out) override;
    std::vector<Bytes> gather(std::span<const std::uint8_t> bytes) override;
    // The ranks on this machine (sharing its memory).
    int local_ranks() const { return local_; }

private:
    int rank_ = 0, size_ = 1, local_ = 1;
};

} // namespace mktb
