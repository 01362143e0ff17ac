// mpi_ranks.cpp - Ranks over MPI (see mpi_ranks.hpp). Buffers travel with int counts and
// displacements (MPI 3, as Debian's Open MPI 4 has it): a message of more than 2^31 elements is
// refused with a TableError rather than truncated.
#include "mpi_ranks.hpp"

#include <climits>
#include <string>

#include "tablebase.hpp" // TableError

namespace mktb {
namespace {

int as_count(std::size_t n, const char* what) {
    if (n > std::size_t(INT_MAX))
        throw TableError(std::string("mktb-mpi: ") + what + " of " + std::to_string(n)
            + " elements exceeds MPI's 2^31 per message: use more ranks");
    return int(n);
}

} // namespace

MpiRanks::MpiRanks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_);
    MPI_Comm_free(&local);
}

void MpiRanks::reduce(std::span<std::uint64_t> values, Op op) {
    const MPI_Op mpiOp = op == Op::Sum ? MPI_SUM : op == Op::Max ? MPI_MAX : MPI_MIN;
    MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size(), "a reduction"), MPI_UINT64_T,
        mpiOp, MPI_COMM_WORLD);
}

std::vector<Ranks::Words> MpiRanks::exchange(std::vector<Words> out) {
    const auto n = std::size_t(size_);
    std::vector<int> sendCounts(n), sendAt(n), recvCounts(n), recvAt(n);
    Words sent;
    for (std::size_t r = 0; r < n; ++r) {
        if (int(r) == rank_) continue;
        sendAt[r] = as_count(sent.size(), "an exchange");
        sendCounts[r] = as_count(out[r].size(), "an exchange");
        sent.insert(sent.end(), out[r].begin(), out[r].end());
        Words().swap(out[r]);
    }
    as_count(sent.size(), "an exchange");
    MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::size_t total = 0;
    for (std::size_t r = 0; r < n; ++r) {
        recvAt[r] = as_count(total, "an exchange");
        total += std::size_t(recvCounts[r]);
    }
    Words received(total);
    as_count(total, "an exchange");
    MPI_Alltoallv(sent.data(), sendCounts.data(), sendAt.data(), MPI_UINT32_T, received.data(),
        recvCounts.data(), recvAt.data(), MPI_UINT32_T, MPI_COMM_WORLD);
    std::vector<Words> in(n);
    for (std::size_t r = 0; r < n; ++r)
        if (int(r) == rank_)
            in[r] = std::move(out[r]);
        else
            in[r].assign(
                received.begin() + recvAt[r], received.begin() + recvAt[r] + recvCounts[r]);
    return in;
}

std::vector<Ranks::Bytes> MpiRanks::gather(std::span<const std::uint8_t> bytes) {
    const auto n = std::size_t(size_);
    const int count = as_count(bytes.size(), "a gather");
    std::vector<int> counts(rank_ == 0 ? n : 0), at(rank_ == 0 ? n : 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    Bytes all;
    if (rank_ == 0) {
        std::size_t total = 0;
        for (std::size_t r = 0; r < n; ++r) {
            at[r] = as_count(total, "a gather");
            total += std::size_t(counts[r]);
        }
        all.resize(total);
    }
    MPI_Gatherv(bytes.data(), count, MPI_BYTE, all.data(), counts.data(), at.data(), MPI_BYTE, 0,
        MPI_COMM_WORLD);
    std::vector<Bytes> in;
    if (rank_ == 0)
        for (std::size_t r = 0; r < n; ++r)
            in.emplace_back(all.begin() + at[r], all.begin() + at[r] + counts[r]);
    return in;
}

} // namespace mktb
