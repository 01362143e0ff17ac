// writing.hpp - what every command that writes tables shares, whatever the game: the memory it
// may spend, the right to write into a directory and the statistics it prints.
#pragma once

#include <cstdint>
#include <string>

#include "table_stats.hpp"
#include "tablefile.hpp" // Game

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

// The statistics a generation writes beside a table (gen/table_stats.hpp), one line per side
// to move as gen prints them: "counted %" is the share a Makruk side wins within a fresh count
// ("-" with a Bia on the board, where no count runs), "rule won %" the share of a Xiangqi side's
// positions that only the repetition rule wins ("-" where one side is armless).
struct StatsRow {
    std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0;
    long long ruled = -1; // counted wins (Makruk) or rule wins (Xiangqi); -1: not known
    int longest = -1; // plies
    std::string longestFen; // a position of the longest mate; empty when there is none
};
// false when the file is missing or not the statistics this program writes.
bool read_rows(const std::string& path, bool xiangqi, StatsRow rows[2]);
void print_header(bool xiangqi);
void print_rows(const std::string& name, bool xiangqi, const StatsRow rows[2]);
// Writes the statistics to `path` whole (a temporary file renamed), reads them back and prints
// their rows (and over MPI the bytes exchanged at each level). Throws TableError.
void write_stats(const TableStats& stats, const std::string& path);

// What is on disk where a table of `game` made under the header word `rules` would be written
// (`found`: the header's rules, where it has one). Current only when its whole-file checksum
// holds: a damaged one (a run killed or a disk filled while it was copied in, two writers) is
// made again, never taken as done. A file of another game or format is OldFormat.
enum class OnDisk { None, NotAFile, OldFormat, OtherRules, Packed, Damaged, Current };
OnDisk on_disk(const std::string& path, Game game, std::uint32_t rules, std::uint32_t* found);

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
