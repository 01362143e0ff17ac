// ranks.hpp - the processes one generation is split over (docs/generator.md, "Over MPI"): this
// one's number, their count, the few collective operations the phases need, and the share of the
// king pairs each one owns. One process is rank 0 of 1 (OneRank), where every operation is the
// identity; mktb-mpi gives the generator an MPI implementation (mpi_ranks.cpp). The generator
// knows no transport: only this interface.
//
// Invariant: every rank calls the same collective operations in the same order with the same
// sizes, and each decision taken after one (levels, rollovers, parts, scheme, coding) is taken
// from its result alone, so every rank takes the same decisions and the file cannot depend on
// the number of ranks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

namespace mktb {

class Ranks {
public:
    virtual ~Ranks() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    enum class Op { Sum, Max, Min };
    // Every rank's `values` combined element-wise by `op`; every rank receives the result.
    virtual void reduce(std::span<std::uint64_t> values, Op op) = 0;
    // Sends out[d] to rank d (out[rank()] stays here) and returns what each rank sent this
    // one, in rank order. Every rank calls it together.
    using Bytes = std::vector<std::uint8_t>;
    virtual std::vector<Bytes> exchange(std::vector<Bytes> out) = 0;
    // Every rank's `bytes` on rank 0, in rank order; nothing elsewhere.
    virtual std::vector<Bytes> gather(std::span<const std::uint8_t> bytes) = 0;

    // Convenience: one value.
    std::uint64_t reduce(std::uint64_t v, Op op) {
        reduce(std::span(&v, 1), op);
        return v;
    }
};

// One process: rank 0 of 1.
class OneRank final : public Ranks {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void reduce(std::span<std::uint64_t>, Op) override { }
    std::vector<Bytes> exchange(std::vector<Bytes> out) override { return out; }
    std::vector<Bytes> gather(std::span<const std::uint8_t> bytes) override {
        return { Bytes(bytes.begin(), bytes.end()) };
    }
};

// The king pairs rank r of n owns: pairs first(r) .. first(r + 1) - 1, consecutive, cut at
// multiples of `align` pairs so that no level mask run, spill chunk, level-loop task or block
// of the file (in generation or storage slots) is shared by two ranks. A rank may own none.
class PairShare {
public:
    // `pairs`: the king pairs; `fieldBits`: generation slots per pair (log 2); `storagePerPair`:
    // storage slots per pair; `blockSlots` (a power of 2): the largest unit no two ranks share.
    PairShare(int pairs, int fieldBits, std::uint64_t storagePerPair, std::uint64_t blockSlots,
        int rank, int ranks)
        : pairs_(pairs)
        , ranks_(ranks)
        , rank_(rank) {
        const std::uint64_t byGen = blockSlots >> std::min(fieldBits, 63);
        const std::uint64_t byStorage = blockSlots / std::gcd(storagePerPair, blockSlots);
        align_ = int(std::max<std::uint64_t>({ 1, byGen, byStorage }));
    }
    int first(int r) const {
        if (r >= ranks_) return pairs_;
        const std::uint64_t cut = std::uint64_t(pairs_) * std::uint64_t(r) / std::uint64_t(ranks_);
        const std::uint64_t a = std::uint64_t(align_);
        return int(std::min<std::uint64_t>(std::uint64_t(pairs_), (cut + a / 2) / a * a));
    }
    int first() const { return first(rank_); }
    int last() const { return first(rank_ + 1); }
    // The rank owning pair p.
    int owner(int p) const {
        int r = 0;
        while (r + 1 < ranks_ && first(r + 1) <= p) ++r;
        return r;
    }
    int ranks() const { return ranks_; }
    int rank() const { return rank_; }

private:
    int pairs_, ranks_, rank_, align_ = 1;
};

} // namespace mktb
