// huge_array.hpp - arrays of a few MiB and more on the kernel's transparent huge pages, for the
// cells a generation, a verification or a resident table reads at random (private to the probe
// library and the generator).
//
// Why: a fresh 4 KiB page costs a page fault, a fresh 2 MiB one the same fault for 512 times the
// memory, and one TLB entry covers it. On this project's VM a generation of KNAABBvKAABB faulted
// 421,000 times, 11,500 with huge pages, and ran about a tenth faster (docs/measurements.md).
// Where the kernel offers none (THP "never", or none free), the array is on ordinary pages.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <type_traits>

namespace mktb {

struct FreeHuge {
    void operator()(void* p) const { std::free(p); }
};
template<class T>
using HugeArray = std::unique_ptr<T[], FreeHuge>;

// n default-initialised (not zeroed) elements of a trivial T; throws std::bad_alloc.
template<class T>
HugeArray<T> make_huge_array(std::size_t n) {
    static_assert(
        std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);
    constexpr std::size_t kHuge = std::size_t(2) << 20;
    const std::size_t bytes = n * sizeof(T);
    void* p = nullptr;
    if (bytes >= 2 * kHuge) { // smaller ones would waste much of their last huge page
        p = std::aligned_alloc(kHuge, (bytes + kHuge - 1) / kHuge * kHuge);
        if (p) ::madvise(p, bytes, MADV_HUGEPAGE); // a hint: failure leaves ordinary pages
    } else
        p = std::malloc(bytes ? bytes : 1);
    if (!p) throw std::bad_alloc();
    return HugeArray<T>(static_cast<T*>(p));
}

} // namespace mktb
