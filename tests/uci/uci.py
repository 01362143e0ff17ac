#!/usr/bin/env python3
"""tests/uci/uci.py MKTB TABLES - `mktb uci` as a GUI drives it:

- the handshake (uci/uciok with the counting options, isready/readyok);
- a table position answered at once with its mate score and line (Rh8 mates in one);
- the count followed through `position ... moves ...`: two quiet moves bring a board's honour
  count to its last attacker move, where only the capture Rxa2 (baring the defender, a fresh
  pieces' honour count) keeps the win (docs/rules.md 3.2); the same position with a fresh count
  has more time;
- MultiPV, go infinite held until stop, bad FEN and illegal moves reported with info string;
- positions outside the tables handed to Fairy-Stockfish (the start position; another variant),
  its output passed through;
- mate scores: never shorter than `mktb probe`'s pure distance to mate (a distance the defender
  cannot beat), for the issue's board-count position and for the longest mates of every ending
  up to 4 men (both sides, from the statistics files), every MultiPV line too;
- a count past its limit (ply limit + 1) has ended the game: a draw, no mate score, no move;
- an engine that does not start: said with info string, the tables still answer; a tables
  directory that is missing: a message and exit code 1.
"""
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time

mktb, tables = sys.argv[1], sys.argv[2]
failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}: {detail}")


class Engine:
    def __init__(self, *args):
        self.p = subprocess.Popen([mktb, "uci", "--tables", tables, *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=30):
        """Every line up to and including the first starting with prefix."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                return seen + [f"<timeout waiting for {prefix}>"]
            if line is None:
                return seen + ["<end of output>"]
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def quiet_for(self, seconds):
        """The lines written within `seconds` (to show that nothing was)."""
        seen = []
        try:
            while True:
                seen.append(self.lines.get(timeout=seconds))
        except queue.Empty:
            return seen

    def quit(self):
        self.send("quit")
        return self.p.wait(timeout=20)


def best(lines):
    return lines[-1].split()[1] if lines and lines[-1].startswith("bestmove") else None


e = Engine()
e.send("uci")
lines = e.until("uciok")
check("id name", any(l.startswith("id name mktb") and "Fairy-Stockfish" in l for l in lines), lines[:3])
check("counting options", "option name counter_mate type combo default win var win var draw" in lines)
# Only options it honours: no Syzygy options (chess tables), UCI_Variant's default is makruk.
check("no Syzygy options", not any("Syzygy" in l for l in lines), [l for l in lines if "Syzygy" in l])
variant = [l for l in lines if l.startswith("option name UCI_Variant ")]
check("UCI_Variant default makruk", len(variant) == 1 and " default makruk " in variant[0]
      and " var makruk" in variant[0], variant)
e.send("isready")
check("readyok", e.until("readyok")[-1] == "readyok")

e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
e.send("go wtime 1000 btime 1000")
lines = e.until("bestmove")
check("Rh8 mates", best(lines) == "h1h8" and any("score mate 1 " in l and l.endswith("pv h1h8") for l in lines), lines)

# The count through the moves: 126 + two plies = 128, White's last move in the count.
e.send("position fen k7/8/8/8/8/8/m7/R3K3 w - 128 126 1 moves e1e2 a8a7")
e.send("go movetime 100")
lines = e.until("bestmove")
check("count followed: only Rxa2", best(lines) == "a1a2" and any("bares the Black king in 1 of 1 moves, then mates in 11 of 13 moves" in l for l in lines), lines)
e.send("position fen 8/k7/8/8/8/8/m3K3/R7 w - - 0 1")
e.send("go movetime 100")
lines = e.until("bestmove")
check("fresh count: more time", any("bares the Black king in 1 of 65 moves, then mates in 11 of 13" in l for l in lines), lines)

e.send("setoption name MultiPV value 3")
e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
e.send("go infinite")
held = e.quiet_for(0.5)
check("go infinite waits for stop", not any(l.startswith("bestmove") for l in held), held)
check("MultiPV 3", sorted(l.split(" multipv ")[1].split()[0] for l in held if " multipv " in l) == ["1", "2", "3"], held)
e.send("stop")
check("stop gives the best move", best(e.until("bestmove")) == "h1h8")
e.send("setoption name MultiPV value 1")

e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0")  # no move number: still a FEN we read
e.send("position fen rubbish")
e.send("go movetime 100")
lines = e.until("bestmove")
check("bad FEN reported", any(l.startswith("info string bad FEN") for l in lines) and best(lines) == "(none)", lines)
e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1 moves h1h9")
e.send("go movetime 100")
lines = e.until("bestmove")
check("illegal move reported", any("illegal move h1h9" in l for l in lines) and best(lines) == "(none)", lines)

# Outside the tables: Fairy-Stockfish answers, its search shown.
e.send("position startpos moves e3e4")
e.send("go movetime 200")
lines = e.until("bestmove")
check("start position to the engine", any(l.startswith("info depth") and "score cp" in l for l in lines)
      and best(lines) not in (None, "(none)"), lines[-3:])
e.send("setoption name UCI_Variant value chess")
e.send("position startpos moves e2e4")
e.send("go movetime 200")
lines = e.until("bestmove")
check("chess to the engine", best(lines) in ("e7e5", "c7c5", "e7e6", "c7c6", "d7d5", "g8f6", "d7d6", "b8c6", "g7g6", "a7a6", "b7b6"), lines[-2:])
e.send("setoption name UCI_Variant value makruk")
e.send("ucinewgame")
e.send("isready")
check("readyok after a variant", e.until("readyok")[-1] == "readyok")
check("quit", e.quit() == 0)

# An engine that does not start: said, and the tables still answer.
e = Engine("--engine", "/nonexistent/engine")
e.send("uci")
lines = e.until("uciok") + e.quiet_for(0.5)
check("engine that does not start", any("info string no engine" in l and "/nonexistent/engine" in l for l in lines), lines[-3:])
e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
e.send("go movetime 100")
check("tables without an engine", best(e.until("bestmove")) == "h1h8")
e.send("position startpos")
e.send("go movetime 100")
lines = e.until("bestmove")
check("no table, no engine", best(lines) == "(none)" and any("no engine" in l for l in lines), lines)
check("quit", e.quit() == 0)

# An engine that talks without end and never says uciok: given up within its 10 s, said, and
# the tables still answer (it once grew to 533 MB, waiting for ever).
with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as chatty:
    chatty.write("#!/bin/sh\nyes 'info string chatter'\n")
os.chmod(chatty.name, 0o755)
e = Engine("--engine", chatty.name)
started = time.monotonic()
e.send("uci")
lines = e.until("uciok", timeout=20)
check("a chatty engine without uciok: given up within 12 s", time.monotonic() - started < 12
      and any("did not answer uci with uciok" in l for l in lines + e.quiet_for(0.5)), lines[-3:])
e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
e.send("go movetime 100")
check("tables beside a chatty engine", best(e.until("bestmove")) == "h1h8")
check("quit", e.quit() == 0)
os.unlink(chatty.name)

run = subprocess.run([mktb, "uci", "--tables", "/nonexistent/tables"], input="uci\n", capture_output=True, text=True, timeout=20)
check("missing tables directory", run.returncode == 1 and "is not a directory" in run.stderr, run.stderr)
# Two directories of the same rules: bad input, exit 2, as mktb serve says it (one way to open).
run = subprocess.run([mktb, "uci", "--tables", tables, "--tables", tables], input="uci\n",
                     capture_output=True, text=True, timeout=20)
check("two directories of the same rules", run.returncode == 2 and "same rules" in run.stderr, run.stderr)

# Mate scores against mktb probe's pure distances: the PV's defender resists longest.
import glob
import json
import os


def pure_mate_in(fen):
    out = subprocess.run([mktb, "probe", fen, "--json", "--tables", tables], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


sample = ["8/8/3m4/8/2k5/8/8/R3K3 w - 128 40 1"]  # pure mate in 24, won within the count in 14
for path in sorted(glob.glob(os.path.join(tables, "*.json"))):
    with open(path) as f:
        stats = json.load(f)
    for side in stats.get("sides", {}).values():
        fen = side.get("longest_mate_fen")
        if fen and fen != "-":
            sample.append(fen)
e = Engine("--engine", "none")
e.send("setoption name MultiPV value 3")
checked = 0
for fen in sample:
    answer = pure_mate_in(fen)
    if answer["mate_in"] is None:
        continue
    e.send(f"position fen {fen}")
    e.send("go movetime 50")
    lines = e.until("bestmove")
    for line in lines:
        if " score mate " not in line:
            continue
        words = line.split()
        score = int(words[words.index("mate") + 1])
        move = words[words.index("pv") + 1]
        after = next(m for m in answer["moves"] if m["uci"] == move)
        # The mover's pure distance in moves after this move (dtm there is the opponent's).
        pure = (abs(after["dtm"]) + 1 + 1) // 2 if after["dtm"] is not None else None
        if pure is None:
            continue
        checked += 1
        check(f"{fen} {move}: score mate {score} not shorter than the pure mate in {pure}",
              abs(score) >= pure, line)
        if fen == sample[0] and words[words.index("multipv") + 1] == "1":
            check("the issue's position: mate 24 or more", score >= 24, line)
check("mate scores checked on a sample", checked > 50, checked)
e.send("position fen k7/8/1K6/8/8/8/8/7R w - 32 33 1")
e.send("go movetime 50")
lines = e.until("bestmove")
check("an ended count: a draw, no mate score, no move",
      any("the count has run out" in l for l in lines) and not any("score mate" in l for l in lines)
      and lines[-1] == "bestmove (none)", lines)
e.quit()

# Xiangqi: after UCI_Variant xiangqi, a table position is answered from the Xiangqi tables (the
# best move and mate distance of `mktb probe --json`, mate scores never shorter than the plain
# distance); the start position is handed to Fairy-Stockfish's xiangqi.
import json
with tempfile.TemporaryDirectory() as xdir:
    subprocess.run([mktb, "gen", "--game", "xiangqi", "KRvKA", "--tables", xdir],
                   capture_output=True, check=True, timeout=300)
    tables = xdir
    e = Engine()
    e.send("uci")
    options = e.until("uciok")
    check("xiangqi offered", any("UCI_Variant" in l and "xiangqi" in l for l in options), options[-5:])
    e.send("setoption name UCI_Variant value xiangqi")
    for fen in ["4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "3k5/4a4/9/9/9/9/9/4R4/9/4K4 b - - 0 1"]:
        answer = json.loads(subprocess.run([mktb, "probe", fen, "--json", "--tables", xdir],
                                           capture_output=True, text=True, check=True).stdout)
        e.send(f"position fen {fen}")
        e.send("go movetime 50")
        lines = e.until("bestmove")
        scores = [l for l in lines if " score " in l]
        check(f"xiangqi {fen}: the tables' best move", best(lines) == answer["moves"][0]["uci"]
              and any("mktb Xiangqi tables" in l for l in lines), lines)
        if answer["mate_in"]:
            stated = int(scores[0].split(" score mate ")[1].split()[0]) if "score mate" in scores[0] else None
            check(f"xiangqi {fen}: mate score not shorter than the plain mate in {answer['mate_in']}",
                  stated is not None and abs(stated) >= abs(answer["mate_in"])
                  and (stated > 0) == (answer["mate_in"] > 0), scores)
    # A variant switch resets the position to the variant's start: a Makruk position is never
    # probed as a Xiangqi board (it once was, a board without kings: an index out of bounds).
    e.send("setoption name UCI_Variant value makruk")
    e.send("position fen k7/8/1K6/8/8/8/8/7R w - - 0 1")
    e.send("setoption name UCI_Variant value xiangqi")
    e.send("go depth 4")
    lines = e.until("bestmove", timeout=60)
    start = subprocess.run([mktb, "perft", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "1", "--divide"],
                           capture_output=True, text=True, check=True).stdout
    starts = {l.split(":")[0] for l in start.splitlines() if ":" in l}
    check("variant switch: the Xiangqi start position searched", best(lines) in starts
          and not any("mktb Xiangqi tables" in l for l in lines), (lines[-3:], sorted(starts)[:5]))
    e.send("setoption name UCI_Variant value makruk")
    e.send("go movetime 100")
    lines = e.until("bestmove", timeout=60)
    check("variant switch back: the Makruk start position", best(lines) not in (None, "(none)", "h1h8")
          and not any("mktb tables" in l for l in lines), lines[-3:])
    e.send("setoption name UCI_Variant value xiangqi")
    e.send("position startpos moves h3e3")
    e.send("go depth 6")
    lines = e.until("bestmove", timeout=60)
    move = best(lines)
    check("xiangqi start position: handed to the engine", move and move != "(none)"
          and not any("mktb Xiangqi tables" in l for l in lines), lines[-3:])
    e.quit()

print(f"{len(failures)} failures" if failures else "all uci checks passed")
sys.exit(1 if failures else 0)
