// writing.hpp - what every command that writes tables shares, whatever the game: the memory it
// may spend and the right to write into a directory.
#pragma once

#include <cstdint>
#include <string>

namespace mktb::cli {

// The memory this process may spend: what the kernel reports available (MemAvailable), or the
// cgroup's limit less what the group uses, whichever is smaller, less a margin of 5 % and
// 256 MiB for the rest of the machine. 0 when neither can be read.
std::uint64_t available_memory();

// Creates the tables' directory (and its parents); false after "mktb gen: cannot create DIR: why"
// on stderr.
bool create_tables_directory(const std::string& dir);
// pack's --out: created, and not the directory the tables are read from; false after printing
// why ("mktb pack: ...").
bool create_pack_directory(const std::string& out, const std::string& tables);

// The right to write tables into a directory: an exclusive flock() on the directory itself,
// held while one ending is checked and written, and released by the kernel if the process
// dies. Two runs into one directory take turns ending by ending: the second finds the first's
// table done instead of writing the same temporary file beside it. Throws TableError.
class DirectoryLock {
public:
    explicit DirectoryLock(const std::string& dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock&) = delete;
    DirectoryLock& operator=(const DirectoryLock&) = delete;

private:
    int fd_;
};

} // namespace mktb::cli
