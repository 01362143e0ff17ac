// thread_ranks.hpp - the ranks of an MPI run stood in for by threads of one process (tests only):
// each thread is a rank with its own Ranks object, and the collective operations meet at a
// barrier, so the generator's split over ranks is tested without mpirun. Every rank must call
// the same operations in the same order (as over MPI): one that throws between two of them
// leaves the others waiting, so a test lets only failures before the first one happen.
#pragma once

#include <barrier>
#include <exception>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "ranks.hpp"

namespace mktb::test {

class ThreadRanks final : public Ranks {
public:
    // Runs fn(ranks) on n threads, each with its rank; rethrows the first rank's exception.
    static void run(int n, const std::function<void(Ranks&)>& fn) {
        auto shared = std::make_shared<Shared>(n);
        std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
        std::vector<std::thread> threads;
        for (int r = 0; r < n; ++r)
            threads.emplace_back([&, r] {
                ThreadRanks ranks(shared, r);
                try {
                    fn(ranks);
                } catch (...) {
                    errors[std::size_t(r)] = std::current_exception();
                }
            });
        for (std::thread& t : threads) t.join();
        for (const std::exception_ptr& e : errors)
            if (e) std::rethrow_exception(e);
    }

    int rank() const override { return rank_; }
    int size() const override { return shared_->n; }
    void reduce(std::span<std::uint64_t> values, Op op) override {
        shared_->values[std::size_t(rank_)].assign(values.begin(), values.end());
        shared_->meet.arrive_and_wait();
        for (std::size_t k = 0; k < values.size(); ++k)
            for (int r = 0; r < size(); ++r) {
                const std::uint64_t v = shared_->values[std::size_t(r)][k];
                values[k] = r == 0  ? v
                    : op == Op::Sum ? values[k] + v
                    : op == Op::Max ? std::max(values[k], v)
                                    : std::min(values[k], v);
            }
        shared_->meet.arrive_and_wait(); // every rank has read before the next writes
    }
    std::vector<Words> exchange(std::vector<Words> out) override {
        shared_->words[std::size_t(rank_)] = std::move(out);
        shared_->meet.arrive_and_wait();
        std::vector<Words> in(static_cast<std::size_t>(size()));
        for (int r = 0; r < size(); ++r)
            in[std::size_t(r)] = std::move(shared_->words[std::size_t(r)][std::size_t(rank_)]);
        shared_->meet.arrive_and_wait();
        return in;
    }
    std::vector<Bytes> gather(std::span<const std::uint8_t> bytes) override {
        shared_->bytes[std::size_t(rank_)].assign(bytes.begin(), bytes.end());
        shared_->meet.arrive_and_wait();
        std::vector<Bytes> all;
        if (rank_ == 0) all = shared_->bytes;
        shared_->meet.arrive_and_wait();
        return all;
    }

private:
    struct Shared {
        explicit Shared(int ranks)
            : n(ranks)
            , meet(ranks)
            , values(std::size_t(ranks))
            , words(std::size_t(ranks))
            , bytes(std::size_t(ranks)) { }
        int n;
        std::barrier<> meet;
        std::vector<std::vector<std::uint64_t>> values; // per rank: its reduce's operands
        std::vector<std::vector<Words>> words; // [from][to]: an exchange
        std::vector<Bytes> bytes; // per rank: a gather's
    };
    ThreadRanks(std::shared_ptr<Shared> shared, int rank)
        : shared_(std::move(shared))
        , rank_(rank) { }
    std::shared_ptr<Shared> shared_;
    int rank_;
};

} // namespace mktb::test
