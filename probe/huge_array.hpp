// huge_array.hpp - arrays of a few MiB and more on the kernel's transparent huge pages, for the
// cells a generation, a verification or a resident table reads at random (private to the probe
// library and the generator).
//
// Why: a fresh 4 KiB page costs a page fault (on a VM, a dear one), a fresh 2 MiB one the same
// fault for 512 times the memory, and one TLB entry covers it; these arrays are written or read
// at random all over (figures: docs/measurements.md). Where the kernel offers none (THP "never",
// none free, not Linux), the array is on ordinary pages.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <sys/mman.h>
#include <type_traits>

namespace mktb {

// Memory of a few MiB and more is mapped for the array alone and unmapped with it, not taken from
// malloc's heap: a verifier loads and drops tables of many sizes, which leaves holes in a heap,
// and a huge page holding a hole stays resident whole.
struct FreeHuge {
    std::size_t mapped = 0; // bytes mapped; 0: from malloc
    void operator()(void* p) const {
        if (mapped)
            ::munmap(p, mapped);
        else
            std::free(p);
    }
};
template<class T>
using HugeArray = std::unique_ptr<T[], FreeHuge>;

inline constexpr std::size_t kHugePage = std::size_t(2) << 20;

// `bytes` of memory, on huge pages from 4 MiB up (a smaller array would waste much of its last
// huge page: it comes from malloc); *mapped: the bytes to unmap, 0 when from malloc. Throws
// std::bad_alloc.
inline void* huge_allocate(std::size_t bytes, std::size_t* mapped) {
    *mapped = 0;
    if (bytes < 2 * kHugePage) {
        void* p = std::malloc(bytes ? bytes : 1);
        if (!p) throw std::bad_alloc();
        return p;
    }
    // Mapped with a huge page's room to spare, then cut to whole aligned huge pages.
    const std::size_t size = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* raw = ::mmap(
        nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const std::uintptr_t from = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t at = (from + kHugePage - 1) & ~std::uintptr_t(kHugePage - 1);
    if (at > from) ::munmap(raw, at - from);
    if (at - from < kHugePage)
        ::munmap(reinterpret_cast<void*>(at + size), kHugePage - (at - from));
    void* p = reinterpret_cast<void*>(at);
#ifdef MADV_HUGEPAGE
    ::madvise(p, size, MADV_HUGEPAGE); // a hint: failure leaves ordinary pages
#endif
    *mapped = size;
    return p;
}

// n default-initialised (not zeroed) elements of a trivial T; throws std::bad_alloc.
template<class T>
HugeArray<T> make_huge_array(std::size_t n) {
    static_assert(
        std::is_trivially_default_constructible_v<T> && std::is_trivially_destructible_v<T>);
    std::size_t mapped = 0;
    void* p = huge_allocate(n * sizeof(T), &mapped);
    return HugeArray<T>(static_cast<T*>(p), FreeHuge { mapped });
}

} // namespace mktb
