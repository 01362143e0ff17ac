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
    // one, in rank order. Every rank calls it together. In 32-bit words: the level loop's lists.
    using Words = std::vector<std::uint32_t>;
    virtual std::vector<Words> exchange(std::vector<Words> out) = 0;
    using Bytes = std::vector<std::uint8_t>;
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
    std::vector<Words> exchange(std::vector<Words> out) override { return out; }
    std::vector<Bytes> gather(std::span<const std::uint8_t> bytes) override {
        return { Bytes(bytes.begin(), bytes.end()) };
    }
};

// The king pairs each rank owns: blocks of `align` consecutive pairs dealt round-robin (block b
// to rank b % n), `align` chosen so that no level-mask run, spill chunk, level-loop task or block
// of the file (in generation or storage slots) is shared by two ranks. Dealt, not cut in n
// ranges: the cells of one level gather around some king squares, so each rank gets its share
// of every level's work, and of every stretch of the file the writer compresses at once.
class PairShare {
public:
    PairShare() = default; // one rank: every pair
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
    int owner(int p) const { return p / align_ % ranks_; }
    bool owns(int p) const { return owner(p) == rank_; }
    int rank() const { return rank_; }
    int ranks() const { return ranks_; }
    // This rank's pairs as runs [first, last), in order (one run on one rank).
    std::vector<std::pair<int, int>> runs() const {
        std::vector<std::pair<int, int>> out;
        for (int p = rank_ * align_; p < pairs_; p += ranks_ * align_) {
            const int end = std::min(pairs_, p + align_);
            if (!out.empty() && out.back().second == p)
                out.back().second = end;
            else
                out.emplace_back(p, end);
        }
        return out;
    }
    // The same runs in slots, `perPair` slots a pair, none beyond `size`.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> slot_runs(
        std::uint64_t perPair, std::uint64_t size) const {
        std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
        for (const auto& [a, b] : runs())
            if (std::uint64_t(a) * perPair < size)
                out.emplace_back(
                    std::uint64_t(a) * perPair, std::min(size, std::uint64_t(b) * perPair));
        return out;
    }
    int pairs_owned() const {
        int n = 0;
        for (const auto& [a, b] : runs()) n += b - a;
        return n;
    }

private:
    int pairs_ = 0, ranks_ = 1, rank_ = 0, align_ = 1;
};

} // namespace mktb
