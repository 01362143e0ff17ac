#!/usr/bin/env python3
"""tests/xiangqi/interfaces.py MKTB PROBE_FENS [FSF_MKTB] - every interface answers a Xiangqi
position as `mktb probe` does, over positions of every Xiangqi table made here.

The tables: KRvKA, KNvKA, KCvKA, KPvKA, KRvKCA (both sides armed: the perpetual-check rule),
KCAvK and every ending they convert into (13 tables). From each, random legal positions
(`mktb positions --game xiangqi ENDING --kind any`, seeded) and the draws the rule decides
(`mktb teach` finds them); for each position `mktb probe
--json --line` is the reference, and
- the HTTP API (`mktb serve`, /api/probe?fen=...&line=1) returns the same JSON;
- the C API (PROBE_FENS, C code: mktb_xiangqi_probe_fen, _probe_rule, _probe_rule_plies,
  _rank_root) gives the same result, distance, rule result and rule's distance, and every
  move's value for its mover;
- `mktb uci` (UCI_Variant xiangqi) plays one of the moves the answer marks best, with the score
  that says the same: `mate N` for the side to move's mate in N, `mate -N` when mated in N, `cp 0`
  for a draw, a large centipawn score of the rule's sign where only the rule decides;
- Fairy-Stockfish with mktb's patch (FSF_MKTB, when given and built; skipped otherwise) at the
  root: the same mate, or a draw's sign.
The page draws from the same API (its Chromium test plays Xiangqi moves: tests/web/page.js).
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request

mktb, probe_fens = sys.argv[1], sys.argv[2]
patched = sys.argv[3] if len(sys.argv) > 3 else ""
failures = []
PER_TABLE = 6


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}: {detail}")


class Engine:
    """A UCI engine on pipes, read by a thread."""

    def __init__(self, argv, variant_options):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        for line in ["uci", *variant_options, "isready"]:
            self.send(line)
        self.until("readyok")

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        seen = []
        while True:
            line = self.lines.get(timeout=60)
            if line is None:
                return seen
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def go(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go depth {depth}")
        lines = self.until("bestmove")
        info = [l for l in lines if " score " in l]
        m = re.search(r"score (cp|mate) (-?\d+)", info[-1]) if info else None
        return lines[-1].split()[1], (m.group(1), int(m.group(2))) if m else None

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def score_agrees(answer, score):
    if score is None:
        return False
    kind, n = score
    if answer["category"] != "draw":  # mate_in: negative where the side to move is mated
        return kind == "mate" and n == answer["mate_in"] != 0
    rule = {"win": 1, "loss": -1}.get(answer.get("rule_result"), 0)
    return kind == "cp" and (n > 0) - (n < 0) == rule and (rule == 0 or abs(n) >= 1000)


tables = tempfile.mkdtemp()
try:
    subprocess.run([mktb, "gen", "--game", "xiangqi", "KRvKA", "KNvKA", "KCvKA", "KPvKA",
                    "KRvKCA", "KCAvK", "--tables", tables], check=True, capture_output=True,
                   env=dict(os.environ, MKTB_NO_PROGRESS="1"))
    names = sorted(f[:-len(".xq.mktb")] for f in os.listdir(tables) if f.endswith(".xq.mktb"))
    check("tables made", len(names) == 13, names)
    fens = []
    for i, name in enumerate(names):
        out = subprocess.run([mktb, "positions", "--game", "xiangqi", name, "--kind", "any",
                              "--number", str(PER_TABLE), "--seed", str(i + 1), "--tables", tables],
                             capture_output=True, text=True, check=True).stdout
        got = [l.split(";")[0].strip() for l in out.splitlines()]
        check(f"{name}: positions", len(got) == PER_TABLE, out)
        fens += got
    # And the draws only the perpetual-check rule decides (too rare for a random sample: 270 of
    # KRvKCA's 1.8 million positions), as `mktb teach` finds them.
    report = os.path.join(tables, "report")
    subprocess.run([mktb, "teach", "--game", "xiangqi", "KRvKCA", "--per-theme", "4", "--tables",
                    tables, "--out", report], check=True, capture_output=True)
    claims = json.load(open(os.path.join(report, "KRvKCA.json")))
    ruled = [i["fen"] for t in claims["themes"] if t["key"] == "rule" for i in t["items"]]
    check("positions the rule decides", len(ruled) >= 2, ruled)
    fens += ruled
    answers = {}
    for fen in fens:
        answers[fen] = json.loads(subprocess.run([mktb, "probe", fen, "--json", "--line", "--tables",
                                                  tables], capture_output=True, text=True,
                                                 check=True).stdout)

    # The HTTP API.
    server = subprocess.Popen([mktb, "serve", "--tables", tables, "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = int(server.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0])
    try:
        same = 0
        for fen in fens:
            url = f"http://127.0.0.1:{port}/api/probe?line=1&fen=" + urllib.parse.quote(fen.replace(" ", "_"))
            with urllib.request.urlopen(url, timeout=30) as r:
                api = json.loads(r.read())
            check(f"API {fen}", api == answers[fen], str(api)[:200])
            same += api == answers[fen]
    finally:
        server.terminate()
        server.communicate(timeout=20)
    print(f"API: {same} of {len(fens)} answers equal mktb probe's")

    # The C API.
    out = subprocess.run([probe_fens, tables], input="\n".join(fens) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    same = 0
    for fen, line in zip(fens, out):
        a, f = answers[fen], line.split()
        wdl, plies, rule, rule_plies, n = int(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[4])
        ok = (wdl == {"win": 1, "draw": 0, "loss": -1}[a["category"]]
              and (plies == -1 if wdl == 0 else plies == abs(a["dtm"]))
              and rule == {"win": 1, "loss": -1}.get(a.get("rule_result"), wdl)
              and rule_plies == (abs(a["rule_distance"]) if "rule_distance" in a else -1)
              and n == len(a["moves"]))
        values = {}
        for m in f[5:]:
            uci, w, p = m.rsplit(":", 2)
            values[uci] = (int(w), int(p))
        for m in a["moves"]:
            after = {"win": -1, "draw": 0, "loss": 1}[m["category"]]  # for the mover
            ok = ok and values.get(m["uci"]) == (after, -1 if after == 0 else abs(m["dtm"]) + 1)
        best = [m["uci"] for m in a["moves"] if m["best"]]
        ok = ok and (not best or f[5].rsplit(":", 2)[0] in best)
        check(f"C API {fen}", ok, (line[:200], a["verdict"]))
        same += ok
    check("C API: a line per position", len(out) == len(fens), len(out))
    print(f"C API: {same} of {len(fens)} answers equal mktb probe's")

    # mktb uci, and the patched Fairy-Stockfish where it is built.
    engines = [("mktb uci", [mktb, "uci", "--tables", tables], 1)]
    if patched and os.access(patched, os.X_OK):
        engines.append(("fairy-stockfish-mktb", [patched], 3))
    else:
        print("skipped: the patched Fairy-Stockfish (not built)")
    for label, argv, depth in engines:
        e = Engine(argv, ["setoption name UCI_Variant value xiangqi",
                          f"setoption name MktbPath value {tables}"] if "mktb uci" != label
                   else ["setoption name UCI_Variant value xiangqi"])
        same = played = 0
        for fen in fens:
            a = answers[fen]
            if not a["moves"]:
                continue
            played += 1
            best, score = e.go(fen, depth)
            keeping = [m["uci"] for m in a["moves"] if m["best"]]
            ok = best in keeping and score_agrees(a, score)
            check(f"{label} {fen}", ok, (best, score, a["verdict"], keeping[:5]))
            same += ok
        e.quit()
        print(f"{label}: {same} of {played} positions with a move agree with mktb probe")
finally:
    shutil.rmtree(tables)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("every interface equals mktb probe over positions of every Xiangqi table made")
