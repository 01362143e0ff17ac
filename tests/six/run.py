#!/usr/bin/env python3
"""tests/six/run.py MKTB MKTB_TESTS - the 6-men tables of $MKTB_SIX_MEN_TABLES through every
interface: the Catch2 [six] tests (Fairy-Stockfish's mate proofs near mate, the C API against the
C++ Prober), then KMMMvKM's longest mate through `mktb probe`, `mktb serve` and
`mktb uci` alike. Exit 77 (CTest: skipped) when the variable is not set or holds no KMMMvKM:
such tables take minutes and gigabytes to make (`mktb gen KMMMvKM`), more than a test run has.

The position every interface is asked about: KMMMvKM's longest mate with White to move, from
its statistics file (the generator's record of the last level it reached).
"""
import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request

mktb, tests = sys.argv[1], sys.argv[2]
tables = os.environ.get("MKTB_SIX_MEN_TABLES")
if not tables or not os.path.exists(os.path.join(tables, "KMMMvKM.mktb")):
    print("skipped: set MKTB_SIX_MEN_TABLES to a directory holding KMMMvKM "
          "(mktb gen KMMMvKM --tables DIR: about 5 minutes and 8.3 GB)")
    sys.exit(77)

failures = []


def check(what, ok, detail=""):
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}: {detail}")


# 1. Mate proofs and the C API (Catch2).
r = subprocess.run([tests, "[six]"], env=dict(os.environ))
check("mktb_tests [six]", r.returncode == 0, f"exit {r.returncode}")

# 2. One answer, every interface. The longest mate of KMMMvKM, from its statistics file: the
# probe must say mate in that many moves (an independent record: the level loop's last level).
stats = json.load(open(os.path.join(tables, "KMMMvKM.json")))
w = stats["sides"]["white_to_move"]
fen, plies = w["longest_mate_fen"], w["longest_mate_plies"]
cli = json.loads(subprocess.run([mktb, "probe", fen, "--json", "--tables", tables],
                                capture_output=True, text=True, check=True).stdout)
print("probe:", json.dumps(cli)[:300])
check("probe: the longest mate", cli.get("dtm") == plies and cli.get("mate_in") == (plies + 1) // 2,
      json.dumps(cli)[:300])

server = subprocess.Popen([mktb, "serve", "--tables", tables, "--port", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    first = server.stdout.readline()
    port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
    url = f"http://127.0.0.1:{port}/api/probe?fen=" + urllib.parse.quote(fen)
    with urllib.request.urlopen(url, timeout=60) as resp:
        api = json.loads(resp.read())
    check("serve answers as probe --json", api == cli,
          f"{json.dumps(api)[:200]} vs {json.dumps(cli)[:200]}")
finally:
    server.terminate()
    server.wait()

uci = subprocess.run([mktb, "uci", "--tables", tables], capture_output=True, text=True,
                     input=f"uci\nisready\nposition fen {fen}\ngo depth 1\n", timeout=120)
# Under a fresh board's honour count this mate cannot be finished (probe says how many moves it
# needs and has): the engine plays for the counted result, a draw, and still names the mating move.
if cli["counted"]["category"] == "draw":
    check("uci: the counted draw", "score cp 0" in uci.stdout, uci.stdout[-500:])
else:
    check("uci: the mate score", f"score mate {(plies + 1) // 2}" in uci.stdout, uci.stdout[-500:])
best = [l for l in uci.stdout.splitlines() if l.startswith("bestmove")]
check("uci: a best move", best and best[0].split()[1] in json.dumps(cli), str(best))

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("6-men tables: every interface agrees")
