// spill.cpp - the spill's scratch file and chunk compression (spill.hpp).
#include "spill.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace mktb {

void release_pages(const void* p, std::size_t bytes) {
    static const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t begin = (std::uintptr_t(p) + page - 1) & ~(page - 1);
    const std::uintptr_t end = (std::uintptr_t(p) + bytes) & ~(page - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

ScratchFile::ScratchFile(const std::string& dir, const std::string& what)
    : what_(what + " (a scratch file in " + dir + ")") {
    // Named by the process and a count: two generations of one process (tests standing ranks
    // in for processes) may spill into one directory at once.
    static std::atomic<unsigned> made { 0 };
    const std::string path = dir + "/.mktb-scratch-" + std::to_string(getpid()) + "-"
        + std::to_string(made.fetch_add(1));
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) fail("cannot create");
    ::unlink(path.c_str());
}

ScratchFile::~ScratchFile() { ::close(fd_); }

std::uint64_t ScratchFile::append(std::span<const std::uint8_t> bytes) {
    const std::uint64_t at = end_.fetch_add(bytes.size());
    for (std::size_t done = 0; done < bytes.size();) {
        errno = 0;
        const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, off_t(at + done));
        if (n <= 0) fail("cannot write");
        done += std::size_t(n);
    }
    return at;
}

void ScratchFile::read(std::uint64_t at, std::span<std::uint8_t> out) const {
    for (std::size_t done = 0; done < out.size();) {
        errno = 0;
        const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, off_t(at + done));
        if (n <= 0) fail("cannot read");
        done += std::size_t(n);
    }
}

void ScratchFile::fail(const char* verb) const {
    const int error = errno;
    throw TableError(std::string(verb) + " " + what_ + ": "
        + (error ? std::strerror(error) : "end of file") + "; no table was written");
}

std::size_t compress_chunk(
    std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out, const std::string& what) {
    thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx { ZSTD_createCCtx(),
        &ZSTD_freeCCtx };
    out.resize(ZSTD_compressBound(in.size()));
    const std::size_t size
        = ZSTD_compressCCtx(cctx.get(), out.data(), out.size(), in.data(), in.size(), 1);
    if (ZSTD_isError(size)) throw TableError(what + ": compression failed");
    return size;
}

} // namespace mktb
