#!/usr/bin/env python3
"""tests/teach/xiangqi.py MKTB OUT - `mktb teach --game xiangqi`: every claim of the report
re-checked through `mktb probe` (and Fairy-Stockfish's xiangqi where a line is played out), the
files it promises, bad input.

Tables made here: KNvKA (the horse against an advisor), KCAvK (the cannon with its advisor),
KPvK and KPvKA (the soldier), KRvKCA (both sides armed: the perpetual-check rule). Per theme:
- longest: a win in exactly the longest mate the generator's statistics (NAME.xq.json) give for
  that side to move;
- only-move: a win that exactly one move keeps, the one named first;
- defence: a draw that exactly one move keeps, every other move losing;
- cannon-screen: the line, played by Fairy-Stockfish, ends in a position `mktb probe` calls
  checkmate, with the cannon named on the mated king's line and the advisor named the one man
  between them;
- old-soldier: a draw with a soldier of the side to move on its last rank, and a win in the
  number of moves named with that soldier one rank lower;
- zugzwang: the results named for each side to move;
- rule: a plain draw with the rule's result named.
"""
import json
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.dom.minidom

mktb, out = sys.argv[1], sys.argv[2]
failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}: {detail}")


tables = tempfile.mkdtemp()
endings = ["KNvKA", "KCAvK", "KPvK", "KPvKA", "KRvKCA"]
subprocess.run([mktb, "gen", "--game", "xiangqi", *endings, "--tables", tables], check=True,
               capture_output=True, env=dict(os.environ, MKTB_NO_PROGRESS="1"))
shutil.rmtree(out, ignore_errors=True)
r = subprocess.run([mktb, "teach", "--game", "xiangqi", *endings, "--tables", tables,
                    "--out", out, "--per-theme", "3"], capture_output=True, text=True)
check("teach exit code", r.returncode == 0, r.stderr)
fsf = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"


def probe(fen):
    p = subprocess.run([mktb, "probe", fen, "--json", "--tables", tables],
                       capture_output=True, text=True)
    return json.loads(p.stdout)


def board(fen):
    """{point name: letter} of a Xiangqi FEN."""
    squares = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares["abcdefghi"[f] + str(10 - r)] = ch
                f += 1
    return squares


def played(fen, line):
    """The FEN after the line, as Fairy-Stockfish's xiangqi plays it."""
    text = subprocess.run([fsf], input="setoption name UCI_Variant value xiangqi\n"
                          f"position fen {fen} moves {' '.join(line)}\nd\nquit\n",
                          capture_output=True, text=True).stdout
    return next(l[5:].strip() for l in text.splitlines() if l.startswith("Fen: "))


def keeps(m, want):
    """Whether move m keeps the mover's result `want` (its category and rule_result, where given,
    are the opponent's after it)."""
    return {"loss": "win", "win": "loss", "draw": "draw"}[m.get("rule_result", m["category"])] == want


seen = {}
for name in endings:
    claims = json.load(open(os.path.join(out, f"{name}.json")))
    stats = json.load(open(os.path.join(tables, f"{name}.xq.json")))
    items = [(t["key"], i) for t in claims["themes"] for i in t["items"]]
    for key, item in items:
        seen[key] = seen.get(key, 0) + 1
        fen, what = item["fen"], f"{item['id']} {item['fen']}"
        a = probe(fen)
        stm = a["side_to_move"]
        if key == "longest":
            plies = stats["sides"][f"{stm}_to_move"]["longest_mate_plies"]
            check(f"{what}: the longest mate", a["category"] == "win"
                  and a["mate_in"] == (plies + 1) // 2 == item["mate_in"], (a["verdict"], plies))
        elif key == "only-move":
            winning = [m["uci"] for m in a["moves"] if keeps(m, "win")]
            check(f"{what}: one winning move", a["category"] == "win" and winning == item["best"][:1]
                  and len(item["best"]) == 1, winning)
        elif key == "defence":
            holding = [m["uci"] for m in a["moves"] if keeps(m, "draw")]
            check(f"{what}: one drawing move", a["category"] == "draw" and "rule_result" not in a
                  and holding == item["best"] and len(a["moves"]) > 1, holding)
        elif key == "cannon-screen":
            end = played(fen, item["line"])
            e = probe(end)
            b = board(end)
            winner_upper = stm == "red"
            cannon, screen = item["cannon"], item["screen"]
            king = next(p for p, c in b.items() if c == ("k" if winner_upper else "K"))
            line = [p for p in b if p != cannon and p != king and (
                (p[0] == cannon[0] == king[0] and min(int(cannon[1:]), int(king[1:])) < int(p[1:]) < max(int(cannon[1:]), int(king[1:])))
                or (p[1:] == cannon[1:] == king[1:] and min(cannon[0], king[0]) < p[0] < max(cannon[0], king[0])))]
            check(f"{what}: the cannon's mate over its advisor", e["checkmate"]
                  and b.get(cannon) == ("C" if winner_upper else "c")
                  and line == [screen] and b[screen] == ("A" if winner_upper else "a")
                  and len(item["line"]) == 2 * item["mate_in"] - 1, (end, cannon, screen, line))
        elif key == "old-soldier":
            low = probe(item["lowered_fen"])
            soldier = "P" if stm == "red" else "p"
            last = "10" if stm == "red" else "1"
            check(f"{what}: the old soldier", a["category"] == "draw"
                  and any(c == soldier and p[1:] == last for p, c in board(fen).items())
                  and low["category"] == "win" and low["mate_in"] == item["lowered_mate_in"],
                  (a["verdict"], low["verdict"]))
        elif key == "zugzwang":
            other = fen.replace(" w ", " b ")
            results = [probe(f) for f in (fen, other)]
            got = [{"win": 1, "draw": 0, "loss": -1}[x.get("rule_result", x["category"])] for x in results]
            check(f"{what}: mutual zugzwang", got == [item["red_result"], item["black_result"]]
                  and got[0] < -got[1], got)
        elif key == "rule":
            check(f"{what}: decided by the rule", a["category"] == "draw"
                  and a.get("rule_result") == {1: "win", -1: "loss"}[item["rule_result"]], a)
    # The files: three pages, EPD and PGN with a line per position, valid SVG diagrams; the
    # worksheet gives no solution, the key every one.
    page, sheet, key_page = (open(os.path.join(out, f"{name}{s}.html")).read()
                             for s in ("", ".worksheet", ".answers"))
    check(f"{name}: the worksheet gives nothing away", "Best:" not in sheet and "Main line" not in sheet)
    # The worksheet numbers its positions as the key does (per theme, from 1), has a legend of
    # the seven men and a line for the name and date; no two positions of a theme start with
    # the same move or share a line from the second move on.
    numbers = re.findall(r"<figcaption><b>(\d+)\.</b>", sheet)
    per_theme = [len(t["items"]) for t in claims["themes"] if t["items"]]
    check(f"{name}: the worksheet numbered as the key",
          numbers == [str(k) for n in per_theme for k in range(1, n + 1)], numbers)
    check(f"{name}: a legend of the men and a name line", all(w in sheet for w in (
        "general (K)", "advisor (A)", "elephant (B)", "horse (N)", "chariot (R)", "cannon (C)",
        "soldier (P)")) and 'class="name-line"' in sheet)
    # Thai pages beside the English ones: every claim and task in Thai, no English theme or
    # chrome left in them, the legend's Thai names.
    th_page, th_sheet, th_key = (open(os.path.join(out, f"{name}{s}.th.html"), encoding="utf-8").read()
                                 for s in ("", ".worksheet", ".answers"))
    check(f"{name}: Thai pages", all('<html lang="th">' in x for x in (th_page, th_sheet, th_key)))
    check(f"{name}: every claim in Thai", all(html.escape(i["claim_th"], quote=True) in th_page
                                              and re.search("[\u0e00-\u0e7f]", i["claim_th"]) for _, i in items))
    check(f"{name}: every task in Thai", all(html.escape(i["task"]["th"], quote=True) in th_sheet
                                             and re.search("[\u0e00-\u0e7f]", i["task"]["th"]) for _, i in items))
    check(f"{name}: no English left in the Thai pages", not any(
        w in th_page + th_sheet + th_key for w in ("The longest mates", "Only moves", "Hold the draw",
                                                   "Worksheet", "Answer key", " to move", "Main line", "Best:")))
    check(f"{name}: the Thai legend", all(w in th_sheet for w in ("ขุน", "ที่ปรึกษา", "ช้าง", "ม้า", "รถ", "ปืนใหญ่", "ทหาร")))
    for t in claims["themes"]:
        lines = [i["line"] for i in t["items"] if i["line"]]
        check(f"{name} {t['key']}: distinct first moves", len({l[0] for l in lines}) == len(lines))
        rests = [tuple(l[1:]) for l in lines if len(l) > 1]
        check(f"{name} {t['key']}: no line shared from move 2", len(set(rests)) == len(rests))
    check(f"{name}: the key answers every position", all(i["id"] in key_page for _, i in items))
    check(f"{name}: the page's figures", f"{stats['sides']['red_to_move']['legal']:,}" in page)
    epd = open(os.path.join(out, f"{name}.epd")).read().splitlines()
    pgn = open(os.path.join(out, f"{name}.pgn")).read()
    check(f"{name}: EPD lines", len(epd) == len(items), len(epd))
    check(f"{name}: PGN games", pgn.count('[Variant "xiangqi"]') == len(items))
    for _, i in items:
        xml.dom.minidom.parse(os.path.join(out, "diagrams", f"{i['id']}.svg"))
for key in ("longest", "only-move", "defence", "cannon-screen", "old-soldier", "rule"):
    check(f"theme {key} found", seen.get(key, 0) > 0, seen)
print("themes checked:", seen)
index = open(os.path.join(out, "index.html")).read()
check("overview: every table", all(f">{e}</a>" in index for e in endings) and "KvK" in index)

# Bad input.
for args, code, message in (
        (["KQvK"], 2, "not a Xiangqi man"),
        (["KRvKAABB"], 3, "no Xiangqi table for KRvKAABB"),
        ([], 2, "give the Xiangqi endings"),
        (["--men", "3"], 2, "--men is Makruk's")):
    r = subprocess.run([mktb, "teach", "--game", "xiangqi", *args, "--tables", tables, "--out", out],
                       capture_output=True, text=True)
    check(f"teach {args}: exit {code}", r.returncode == code and message in r.stderr, (r.returncode, r.stderr))
shutil.rmtree(tables)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("mktb teach --game xiangqi: every claim checked")
