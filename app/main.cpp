// main.cpp - the mktb program: dispatches to one subcommand per job.
#include <csignal>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace {

constexpr const char* kUsage = R"(usage: mktb <command> [arguments]

commands:
  perft "<FEN>" DEPTH [--divide]   count the leaves of the legal move tree
                                   (FEN may be "startpos")
  gen (ENDING... | --men N) [--list] [--tables DIR] [--threads N] [RULES]
      [--memory BYTES] [--keep-other-rules]
                                   generate endings (e.g. KRvK, KSSvKM; men in any
                                   order, either side first) and every smaller
                                   ending they convert into, skipping those on
                                   disk (a table built with other RULES is made
                                   again, or refused with --keep-other-rules);
                                   print their statistics (pure and under a
                                   fresh count). An ending needing more memory
                                   than BYTES (default: what is available, less
                                   a margin; suffixes K M G T) is refused before
                                   anything starts; --list prints each ending's
                                   cells and memory
  verify (ENDING... | --men N) [--tables DIR] [--threads N]
                                   check written tables against their successors
  digest (ENDING... | --men N) [--tables DIR]
                                   a digest of every value a table stores (equal
                                   digests: equal answers, whatever the file bytes)
  pack (ENDING... | --men N) [--tables DIR] --out DIR [--block-cells N]
      [--level N]                  copy tables, and every smaller ending they
                                   convert into, keeping one side to move (the
                                   smaller; a probe of the other searches one
                                   ply): files to download and ship, for probing
  probe "<FEN>" [--json] [--line] [--count pieces:C|board:C] [--tables DIR] [RULES]
                                   distance to mate of a position, the answer
                                   under the count (FEN fields 4-5, --count, or
                                   a fresh count), every move with its values
  probe --epd FILE [--json] [--tables DIR] [RULES]
                                   one answer per line of FILE: FENs, or EPD as
                                   mktb teach writes it (the count in c2); a bad
                                   line gets its own error, the rest go on
  serve [--tables DIR]... [--port N] [--bind ADDRESS] [--request-deadline S]
                                   the web page and the HTTP API (docs/api.md) on
                                   http://127.0.0.1:8080/ (--port 0: any free
                                   port); one --tables per rule set served
  uci [--tables DIR]... [--engine PATH [ARGS...] | --engine none]
                                   a UCI engine for Makruk: table positions
                                   answered from the tables under the count the
                                   game runs, others handed to the engine
                                   (default: fairy-stockfish)
  positions ENDING --kind won|hold [--number N] [--slack S] [--min-moves M]
      [--seed X] [--tables DIR] [RULES]
                                   random positions won within the count with
                                   at most S moves to spare (won), or drawn by
                                   the count at most S moves short of mate with
                                   a losing move to avoid (hold); FEN with count
  teach (ENDING... | --men N) [--out DIR] [--per-theme N] [--tables DIR] [RULES]
                                   teaching material: per ending an HTML page
                                   (statistics, themes with diagrams and hidden
                                   solutions, printable), EPD, PGN, SVG; an
                                   overview and the regulation page (default
                                   DIR: report)
  match --first "CMD" --second "CMD" --positions FILE [--movetime MS]
      [--pgn FILE] [--max-plies N] [RULES]
                                   games between two UCI engines from the
                                   positions (the first plays the side to move),
                                   adjudicated by the rules, written as PGN

DIR defaults to $MKTB_TABLES, else ./tables.
Exit codes: 0 done, 1 failed (missing or damaged table, verification mismatch),
2 bad input, 3 no table for the material (probe).
RULES: the counting options (docs/rules.md §4), defaults first (Fairy-Stockfish's):
  --limit-precedence min|khon_before_knights  --draw-when exceeded|reached
  --counter-mate win|draw  --board-honour first_opportunity|off
  --switch-to-pieces always|if_shorter
A table records the options it was built with; probing it with others is refused.
)";

// "mktb CMD --help": the usage entries of CMD (from kUsage: each with its continuation lines),
// the notes on DIR and exit codes, and the RULES block where CMD takes RULES.
std::string command_help(std::string_view cmd) {
    const std::string usage = kUsage;
    std::string entries;
    for (std::size_t at = usage.find("\n  " + std::string(cmd) + " "); at != std::string::npos;
         at = usage.find("\n  " + std::string(cmd) + " ", at + 1)) {
        std::size_t end = at + 1;
        do end = usage.find('\n', end) + 1;
        while (end < usage.size() && usage.compare(end, 6, "      ") == 0);
        entries += (entries.empty() ? "usage: mktb " : "       mktb ")
            + usage.substr(at + 3, end - at - 3);
    }
    if (entries.empty()) return {};
    const std::size_t notes = usage.find("\nDIR defaults"), rules = usage.find("\nRULES:");
    std::string help = entries + usage.substr(notes + 1, rules - notes);
    if (entries.find("RULES") != std::string::npos) help += usage.substr(rules + 1);
    return help;
}

} // namespace

int main(int argc, char** argv) {
    // A file-size limit (ulimit -f) is a full disk like any other: write() fails with EFBIG,
    // the writer says so and removes its temporary file, instead of a silent SIGXFSZ kill.
    std::signal(SIGXFSZ, SIG_IGN);
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? mktb::cli::kExitBadInput : mktb::cli::kExitOk;
    }
    const std::string_view cmd = args[0];
    const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
    for (std::string_view a : rest)
        if (a == "--help" || a == "-h") {
            const std::string help = command_help(cmd);
            if (help.empty()) break; // an unknown command: reported below
            std::fputs(help.c_str(), stdout);
            return mktb::cli::kExitOk;
        }
    if (cmd == "perft") return mktb::cli::perft_command(rest);
    if (cmd == "gen") return mktb::cli::gen_command(rest);
    if (cmd == "verify") return mktb::cli::verify_command(rest);
    if (cmd == "digest") return mktb::cli::digest_command(rest);
    if (cmd == "pack") return mktb::cli::pack_command(rest);
    if (cmd == "probe") return mktb::cli::probe_command(rest);
    if (cmd == "serve") return mktb::cli::serve_command(rest);
    if (cmd == "uci") return mktb::cli::uci_command(rest);
    if (cmd == "match") return mktb::cli::match_command(rest);
    if (cmd == "positions") return mktb::cli::positions_command(rest);
    if (cmd == "teach") return mktb::cli::teach_command(rest);
    std::fprintf(stderr, "mktb: unknown command '%s'\n%s", std::string(cmd).c_str(), kUsage);
    return mktb::cli::kExitBadInput;
}
