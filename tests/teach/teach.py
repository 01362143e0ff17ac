#!/usr/bin/env python3
"""tests/teach/teach.py MKTB TABLES OUT - `mktb teach` on four endings (KRvK, KSMvK, KRvKS, KSPvK):

- every position's stated answer and theme property is re-checked through the probing API (the
  HTTP API of `mktb serve`, whose answers tests/web/serve.py ties to `mktb probe --json`): its
  value and counted value, the best moves, the rule of its theme (one winning move, one drawing
  move, one longest defence, a zugzwang, a natural move that loses, the count that takes a win
  away), and its main line replayed move by move to mate;
- a sample of the mates is proven independently by Fairy-Stockfish with the count off: it finds a
  mate, and never a faster one than the stated distance;
- every SVG diagram is well-formed XML (a solution's diagram has its arrow), the EPD and PGN hold
  one entry per position;
- bad input: an unknown ending, a missing table, a directory that cannot be written.
The pages themselves are opened in chromium by tests/web/report.mjs.
"""
import glob
import collections
import re
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

mktb, tables, out = sys.argv[1:4]
failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}: {detail}")


endings = ["KRvK", "KSMvK", "KRvKS", "KSPvK"]  # KSMvK's longest counted wins include Black to move
run = subprocess.run([mktb, "teach", *endings, "--out", out, "--tables", tables, "--per-theme", "3"],
                     capture_output=True, text=True)
check("mktb teach", run.returncode == 0, run.stderr)
print(run.stdout, end="")

server = subprocess.Popen([mktb, "serve", "--tables", tables, "--port", "0"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
base = "http://127.0.0.1:" + server.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0]


def probe(fen):
    with urllib.request.urlopen(f"{base}/api/probe?" + urllib.parse.urlencode({"fen": fen}), timeout=30) as r:
        return json.load(r)


def mover_wins(move):  # a move's values are those after it, for the opponent
    return move["counted"]["category"] == "loss"


def replay(fen, line, what, visited=None):
    """Plays the line through the API (every move must be legal there); the final answer. The
    positions it passes (board and side) are added to `visited`."""
    a = probe(fen)
    for uci in line:
        if visited is not None:
            visited.add(" ".join(a["fen"].split()[:2]))
        nxt = [m for m in a["moves"] if m["uci"] == uci]
        if not nxt:
            check(f"{what}: line move {uci} legal", False, a["fen"])
            return a
        # The count fields dropped: a line without counting may run past the count's end.
        a = probe(" ".join(nxt[0]["fen"].split()[:3]) + " - 0 1")
    return a


mates = []  # (fen, stated mate in moves) for Fairy-Stockfish
# The themes' tasks that ask the side to move to win, in Thai (teacher.hpp's).
winner_tasks_th = {"หาทางรุกจนที่เร็วที่สุด", "หาตาเดินที่ชนะภายในการนับ แล้วเดินจนชนะ",
                   "หาตาเดินเดียวที่ยังชนะภายในการนับ"}
try:
    total = diagrams = 0
    for ending in endings:
        claims = json.load(open(os.path.join(out, ending + ".json")))
        themes = {c["theme"] for c in claims}
        on_line = {}  # id: the positions its line passes, its own excluded
        check(f"{ending}: themes", {"longest", "longest-counted", "defence", "trap"} <= themes, themes)
        # No near-duplicates within a theme: no two positions start with the same move, and
        # none shares another's line from its second move on.
        for theme in themes:
            lines = [c["line"] for c in claims if c["theme"] == theme and c["line"]]
            firsts = [l[0] for l in lines]
            check(f"{ending} {theme}: distinct first moves", len(set(firsts)) == len(firsts), firsts)
            rests = [tuple(l[1:]) for l in lines if len(l) > 1]
            check(f"{ending} {theme}: no line shared from move 2", len(set(rests)) == len(rests))
        for c in claims:
            total += 1
            what = c["id"]
            a = probe(c["fen"])
            moves = {m["uci"]: m for m in a["moves"]}
            check(f"{what}: category", a["category"] == c["facts"]["category"], (a["category"], c["facts"]))
            check(f"{what}: counted", a["counted"]["category"] == c["facts"]["counted"], (a["counted"], c["facts"]))
            check(f"{what}: best moves legal", all(b in moves for b in c["best"] + c["avoid"]), c["best"])
            if c["dm"] is not None and c["dm"] <= 16 and sum(m[0].startswith(ending) for m in mates) < 2:
                mates.append((ending + " " + c["fen"], c["dm"]))
            if c["dm"] is not None:
                check(f"{what}: dm", a["category"] == "win" and a["mate_in"] == c["dm"], (a["mate_in"], c["dm"]))
            # The worksheet's task is worded for the side to move: the side that loses (under the
            # count, or without it where the count saves it) is asked to defend, never to win.
            defends = a["counted"]["category"] == "loss" or (
                a["counted"]["category"] == "draw" and a["category"] == "loss")
            asks_win = any(w in c["task"]["en"] for w in ("wins", "fastest mate", "keeps the win", "win within"))
            asks_defence = any(w in c["task"]["en"].lower() for w in ("defen", "hold", "draw"))
            if c["theme"] == "zugzwang":
                pass  # asks the result with either side to move
            elif defends:
                check(f"{what}: the defender's task", asks_defence and not asks_win, (a["category"], a["counted"]["category"], c["task"]))
                check(f"{what}: the defender's task in Thai", c["task"]["th"] not in winner_tasks_th, c["task"])
            elif a["counted"]["category"] == "win":
                check(f"{what}: the winner's task", not any(w in c["task"]["en"].lower() for w in ("hold out", "defence")), c["task"])
            f, t = c["facts"], c["theme"]
            if t == "longest":
                check(f"{what}: longest", abs(a["mate_in"]) == f["mate_moves"]
                      and len(c["line"]) == abs(a["dtm"]), (a["dtm"], len(c["line"])))
                # The solution is every fastest mate (or slowest loss): the best pure values.
                best_dtm = min(-m["dtm"] for m in a["moves"] if m["dtm"] is not None and m["dtm"] <= 0) \
                    if a["category"] == "win" else None
                if best_dtm is not None:
                    check(f"{what}: fastest mates", sorted(c["best"]) == sorted(
                        u for u, m in moves.items() if m["dtm"] is not None and m["dtm"] <= 0 and -m["dtm"] == best_dtm), c["best"])
            elif t == "longest-counted":
                check(f"{what}: counted distance", a["counted"]["moves_needed"] == f["moves_needed"], a["counted"])
            elif t == "only-move":
                winning = [u for u, m in moves.items() if mover_wins(m)]
                check(f"{what}: one winning move", winning == c["best"] and a["counted"]["category"] == "win", winning)
            elif t == "count-critical" and "shortfall" in f:
                k = a["counted"]
                check(f"{what}: count takes the win", a["category"] != "draw" and k["category"] == "draw"
                      and k["moves_needed"] - k["moves_available"] == f["shortfall"], k)
            elif t == "count-critical":
                check(f"{what}: fastest mate loses the count", all(not mover_wins(moves[u]) for u in c["avoid"])
                      and all(mover_wins(moves[u]) for u in c["best"]), c)
            elif t == "defence" and "longest_loss_plies" in f:
                # A losing move's value after it: the opponent mates in dtm plies; longest = largest.
                lengths = sorted((m["dtm"] for m in a["moves"] if m["category"] == "win"), reverse=True)
                check(f"{what}: one longest defence", a["category"] == "loss" and len(lengths) > 1
                      and lengths[0] > lengths[1] and moves[c["best"][0]]["dtm"] == lengths[0]
                      and lengths[0] + 1 == f["longest_loss_plies"], lengths[:3])
            elif t == "defence":
                drawing = [u for u, m in moves.items() if m["counted"]["category"] == "draw"]
                check(f"{what}: one drawing move", drawing == c["best"] and a["counted"]["category"] == "draw", drawing)
            elif t == "zugzwang":
                # Black to move instead, with no count given (the FEN's count is White's: its
                # parity would not fit, and results without counting need none).
                board = c["fen"].split()[0]
                other = f"{board} b - - 0 1"
                b = probe(other)
                rank = {"loss": -1, "draw": 0, "win": 1}
                white_with_move = rank[a["category"]]
                white_without = -rank[b["category"]]
                check(f"{what}: zugzwang", white_with_move < white_without
                      and a["category"] == f["white_to_move"] and b["category"] == f["black_to_move"], (a["category"], b["category"]))
            elif t == "trap":
                trap = moves[f["trap"]]
                goal = a["counted"]["category"]
                after = {"win": "loss", "draw": "draw", "loss": "win"}[goal]  # keeping the result
                check(f"{what}: trap loses the result", trap["counted"]["category"] != after
                      and c["avoid"] == [f["trap"]], (goal, trap["counted"]))
                # Not a move that simply hangs a man: no best answer to it is a capture.
                answer = probe(trap["fen"])
                check(f"{what}: the trap does not hang a man",
                      not any(m["best"] and m["capture"] for m in answer["moves"]),
                      [m["san"] for m in answer["moves"] if m["best"]])
            if t == "defence":
                check(f"{what}: the defence does not just take a free man",
                      not any(moves[b]["capture"] for b in c["best"]), c["best"])
            if c["line"]:
                passed = set()
                end = replay(c["fen"], c["line"], what, passed)
                on_line[c["id"]] = passed - {" ".join(c["fen"].split()[:2])}
                check(f"{what}: line ends in mate", end["checkmate"], end["fen"])
        # No two positions share their solution: none lies on another's line (in any theme).
        for x in claims:
            for y in claims:
                if x is not y:
                    check(f"{x['id']} not on the line of {y['id']}",
                          " ".join(x["fen"].split()[:2]) not in on_line.get(y["id"], set()),
                          (x["fen"], y["fen"]))
        # No two nearly identical positions in one theme: the same side to move and one man
        # moved (two squares), or the same kings' squares.
        def squares(fen):
            out = {}
            for r, rank in enumerate(fen.split()[0].split("/")):
                f = 0
                for ch in rank:
                    if ch.isdigit():
                        f += int(ch)
                    else:
                        out[(7 - r) * 8 + f] = ch
                        f += 1
            return out
        for i, x in enumerate(claims):
            for y in claims[i + 1:]:
                if x["theme"] != y["theme"]:
                    continue
                a, b = squares(x["fen"]), squares(y["fen"])
                kings = all([s for s, m in a.items() if m == k] == [s for s, m in b.items() if m == k] for k in "Kk")
                differ = sum(a.get(s) != b.get(s) for s in range(64))
                same_side = x["fen"].split()[1] == y["fen"].split()[1]
                check(f"{x['id']} and {y['id']}: not nearly identical", not kings and not (same_side and differ <= 2),
                      (x["fen"], y["fen"]))
        # The diagrams, the EPD and the PGN.
        epd = open(os.path.join(out, ending + ".epd")).read().splitlines()
        pgn = open(os.path.join(out, ending + ".pgn")).read()
        check(f"{ending}: one EPD line per position", len(epd) == len(claims)
              and all(' id "' in l and ' c0 "' in l and ' c2 "' in l for l in epd), len(epd))
        check(f"{ending}: one PGN game per position", pgn.count("[Event ") == len(claims))
        # A game ends where the count ends it: a draw, the rest of the pure mate in a comment
        # (docs/rules.md 3.1: the defender's move counted L + 1 draws), never a win after it.
        for game in pgn.split("[Event ")[1:]:
            movetext = game.split("\n\n", 1)[1]
            if "the count has run out" in movetext:
                check(f"{ending}: the count ends the game", game.count('[Result "1/2-1/2"]') == 1
                      and movetext.rstrip().endswith("} 1/2-1/2"), movetext[-200:])
        for c in claims:
            ET.parse(os.path.join(out, c["diagram"]))
            diagrams += 1
            if c["best"]:  # the solution's diagram: an arrow for the first best move
                svg = ET.parse(os.path.join(out, c["solution_diagram"])).getroot()
                check(f"{c['id']}: solution arrow", len(svg.findall("{http://www.w3.org/2000/svg}polygon")) == 1)
                diagrams += 1
    check("positions found", total >= 60, total)
    for page in ["index.html", "regulation.html", "report.css"] + [e + ".html" for e in endings]:
        check(f"{page} written", os.path.getsize(os.path.join(out, page)) > 0)
    check("every diagram is XML", len(glob.glob(os.path.join(out, "diagrams", "*.svg"))) == diagrams)
    # The regulation page says at the top which of its rows these tables answer (none: every
    # ending of docs/rules.md §7 has 5 men or more) and what the others take, by men; each row
    # that can be made names its command; none advises a count of machines.
    reg = open(os.path.join(out, "regulation.html"), encoding="utf-8").read()
    rows = re.findall(r"<tr><td>[^<]*</td><td>[^<]*</td><td>(\w+)[^<]*</td><td[^>]*>(.*?)</td>", reg)
    men = collections.Counter(len(e) - 1 for e, _ in rows)  # letters less the "v"
    summary = re.sub("<[^>]+>", "", reg[reg.index('<p class="summary">'):].split("</p>")[0])
    check("regulation: 27 rows", len(rows) == 27, len(rows))
    check("regulation: the summary counts the rows", f"answer 0 of the 27 rows" in summary
          and all(f"{n} need endings of {k} men" in summary for k, n in men.items()), (summary, men))
    check("regulation: 5 men made with gen --men 5", "mktb gen --men 5" in summary, summary)
    check("regulation: each row of 6 men or fewer named as the command that makes it",
          all(f"mktb gen {e}" in cell or len(e) - 1 > 6 for e, cell in rows), rows[:3])
    check("regulation: no machine counts", "machines" not in reg and "more than mktb makes" in reg)
finally:
    server.terminate()
    server.wait(timeout=20)

# Fairy-Stockfish, count off, proves a sample of the mates: a mate, never faster than stated.
with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as ini:
    ini.write("[makruknc:makruk]\ncountingRule = none\n")
fsf = subprocess.Popen([shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def say(line):
    fsf.stdin.write(line + "\n")
    fsf.stdin.flush()


def until(prefix):
    lines = []
    for line in fsf.stdout:
        lines.append(line.strip())
        if line.startswith(prefix):
            return lines
    return lines


say(f"setoption name VariantPath value {ini.name}")
say("setoption name UCI_Variant value makruknc")
say("isready")
until("readyok")
check("mates to prove", len(mates) >= 3, mates)
for entry, dm in mates:
    fen = entry.split(" ", 1)[1]
    say("ucinewgame")
    say("position fen " + " ".join(fen.split()[:2]) + " - - 0 1")
    say("go nodes 3000000")
    mate = None
    for line in until("bestmove"):
        if "bound" in line:
            continue
        if " score mate " in line:
            mate = int(line.split(" score mate ")[1].split()[0])
        elif " score cp " in line:
            mate = None
    check(f"Fairy-Stockfish proves {fen} (mate in {dm})", mate is not None and mate >= dm, mate)
say("quit")
fsf.wait(timeout=20)
os.unlink(ini.name)

# Bad input.
for args, code, words in [
    (["KXvK"], 2, "mktb teach:"),
    (["KRRSvK"], 3, "no table for KRRSvK"),
    (["KRvK", "--out", "/proc/mktb-report"], 1, "mktb teach:"),
    (["KRvK", "--per-theme", "0"], 2, "--per-theme takes 1 to 100"),
]:
    r = subprocess.run([mktb, "teach", *args, "--tables", tables] + ([] if "--out" in args else ["--out", out + "-bad"]),
                       capture_output=True, text=True)
    check(f"teach {args}", r.returncode == code and words in r.stderr, (r.returncode, r.stderr))

print(f"{len(failures)} failures" if failures else "all teach checks passed")
sys.exit(1 if failures else 0)
