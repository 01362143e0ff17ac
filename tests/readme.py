#!/usr/bin/env python3
"""tests/readme.py REPO BUILD TABLES4 - the README's commands run as written, in the README's order,
on a fresh directory (issue: the first hour, round three).

Every command the README shows (each line of its ```sh blocks, each `build/mktb ...`,
`scripts/...` or `mpirun ...` in its text) must be known here: run as written, run with its
placeholders filled (DIR, FILE, <FEN>, [--json]: each form), or skipped with the reason (longer
than a CI run allows, or this very test run). A command the README gains without an entry here
fails the test, so the list cannot drift from the README. Each command that runs must exit 0 (the
README promises no failure), and a few outputs are checked against values the README states.

The fresh directory holds `build` and `scripts` (links to this build and the repository's
scripts) and nothing else: commands find `tables/` there as the README's reader would after
`scripts/run`. `scripts/run` itself runs from the repository with MKTB_TABLES and MKTB_REPORT
pointing into the fresh directory, its 4-men tables copied from the test fixture (TABLES4, made
by the same `mktb gen --men 4`) so that its generation step finds them made. Exit 77 (skipped)
when BUILD is not REPO/build, which the README's commands name.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

repo, build, tables4 = (os.path.realpath(p) for p in sys.argv[1:4])
failures = []


def check(what, ok, detail=""):
    print(("ok: " if ok else "FAILED: ") + what + ("" if ok else f": {detail}"), flush=True)
    if not ok:
        failures.append(what)


def readme_commands(path):
    """The README's commands in order: each line of a ```sh block, and each `build/mktb ...`,
    `scripts/...` or `mpirun ...` span of the text (a span may run over lines), without their
    comments or a `$ ` prompt."""
    text = open(path, encoding="utf-8").read()
    found = []
    for i, part in enumerate(re.split(r"^[ \t]*```.*$", text, flags=re.M)):
        if i % 2:  # inside a fenced block
            for line in part.splitlines():
                line = re.sub(r"^\s*\$ ", "", line)
                line = re.sub(r"\s+#\s.*$", "", line).strip()
                if line.startswith(("build/mktb", "scripts/", "mpirun")):
                    found.append(line)
        else:
            for span in re.findall(r"`([^`]+)`", part):
                span = " ".join(span.split())
                if span.startswith(("build/mktb", "scripts/", "mpirun")):
                    found.append(span)
    return found


LONG = "longer than a CI run allows"
KRVK_FEN = "k7/8/1K6/8/8/8/8/7R w - - 0 1"  # Rh8 mates at once (docs/rules.md's example)
# What to do with each command: None (run as written), a list of commands to run in its place
# (its placeholders filled), or the reason it is skipped.
PLAN = {
    "scripts/run": ["scripts/run"],  # from the repository, into the fresh directory (see above)
    "scripts/test": "the run this test is part of",
    "build/mktb gen KRSvKR": f"a 5-men ending and those it converts into: minutes, {LONG}",
    "build/mktb gen --men 5": f"every 5-men ending: 2 hours, {LONG}",
    "build/mktb probe \"M6S/8/8/8/2K5/4k3/8/8 w - 88 7 1\"": None,
    "build/mktb serve": ["serve"],
    "scripts/build-fairy-stockfish": "scripts/test builds it before this run",
    "build/mktb teach KSMvK KRvKS --out report": None,
    "build/mktb gen --game xiangqi KRvKAABB": None,
    "build/mktb gen --game xiangqi --set one-attacker": f"the 324 one-attacker endings: 4 minutes, {LONG}",
    "build/mktb gen --game xiangqi --set one-attacker --list": None,
    "build/mktb gen --game xiangqi KRvKN": None,
    "build/mktb gen --game xiangqi --rules none --tables tables-none KRvKN": None,
    "build/mktb verify --game xiangqi KRvKAABB": None,
    "build/mktb digest --game xiangqi KRvKN": None,
    "build/mktb pack --game xiangqi KRvKAABB --out DIR": [
        "build/mktb pack --game xiangqi KRvKAABB --out packed-xiangqi"],
    "build/mktb probe \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\" [--json] [--line]": [
        "build/mktb probe \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"",
        "build/mktb probe \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\" --json",
        "build/mktb probe \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\" --line"],
    "build/mktb perft \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\" 4": None,
    "build/mktb gen --game xiangqi KNvKA KRvKAA KRvKBB KPvK KCAvK": None,
    "build/mktb positions --game xiangqi KNvKA --kind won": None,
    "build/mktb teach --game xiangqi KRvKAA KRvKBB KNvKA KPvK KRvKAABB KCAvK --out report-xiangqi": None,
    "scripts/bench-xiangqi [--xiangqitb DIR]": f"the one-attacker set made and verified: 10 minutes, {LONG}",
    "scripts/bench-xiangqi --xiangqitb DIR": f"the one-attacker set beside xiangqitb, {LONG}",
    "scripts/bench-xiangqi --xiangqitb DIR KRPvKR KRNvKR KRCvKR":
        f"three armed endings beside xiangqitb: 6 minutes, {LONG}",
    "build/mktb gen --game xiangqi --rules asian KNPvKN KRPvKR":
        "the asian pass timed: tests/cli/xiangqi.sh makes KNPvKN under asian",
    "build/mktb gen --game xiangqi KNPvKN KRPvKR":
        "the rule's distances timed: tests/cli/xiangqi.sh makes KNPvKN with them and verifies it",
    "mpirun -np N build/mktb-mpi gen --game xiangqi ENDING":
        "tests/mpi/run.sh runs it on 2 and 3 ranks against one process",
    "scripts/xiangqi-statistics tables": None,
    "scripts/xiangqi-sets-on-paper tables": None,
    "build/mktb probe \"4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1\"": None,
    "build/mktb serve --tables DIR": ["serve --tables tables"],
    "build/mktb uci": ["uci"],
    "build/mktb match": "named here as a command; its form is below",
    "scripts/match-xiangqi": f"5.5 minutes of games, {LONG}",
    "scripts/match-fairy-stockfish 100 xiangqi": f"games at 100 ms a move, {LONG}",
    "build/mktb perft \"<FEN>\" DEPTH [--divide]": [
        "build/mktb perft startpos 3", "build/mktb perft startpos 2 --divide"],
    "build/mktb gen KSMvK": None,
    "build/mktb gen --men 5 --list": None,
    "build/mktb verify KSMvK": None,
    "build/mktb digest KSMvK": None,
    "build/mktb pack --men 5 --out packed": [
        "build/mktb pack --men 4 --out packed"],  # --men 5 needs the 5-men tables (2 hours)
    "build/mktb probe \"8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1\" [--json]": [
        "build/mktb probe \"8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1\"",
        "build/mktb probe \"8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1\" --json"],
    "build/mktb probe \"<FEN>\" --count pieces:12": [
        "build/mktb probe \"8/3k4/6M1/2K1S3/8/8/8/8 b - - 0 1\" --count pieces:12"],
    "build/mktb probe \"<FEN>\" --count board:30": [
        "build/mktb probe \"k7/8/1K6/8/8/8/s7/7R w - - 0 1\" --count board:30"],
    "build/mktb probe \"<FEN>\" --line": [f"build/mktb probe \"{KRVK_FEN}\" --line"],
    "build/mktb probe --epd FILE [--json]": [
        "build/mktb probe --epd report/KSMvK.epd", "build/mktb probe --epd report/KSMvK.epd --json",
        "build/mktb probe --epd report-xiangqi/KNvKA.epd",
        "build/mktb probe --epd report-xiangqi/KNvKA.epd --json"],
    "build/mktb serve [--tables DIR]... [--port N]": ["serve --tables tables --port 0"],
    "build/mktb uci [--tables DIR]... [--engine PATH [ARGS...]]": ["uci --tables tables"],
    "build/mktb positions KSMvK --kind won --slack 2": ["build/mktb positions KSMvK --kind won --slack 2 > won.fen"],
    "build/mktb match --first \"build/mktb uci\" --second fairy-stockfish --positions FILE --movetime 100 --pgn games.pgn": [
        "head -1 won.fen > one.fen && build/mktb match --first \"build/mktb uci\" --second fairy-stockfish "
        "--positions one.fen --movetime 100 --pgn games.pgn"],
    "build/mktb teach KSMvK KRvKS [--out report] [--per-theme 4]": [
        "build/mktb teach KSMvK KRvKS --out report --per-theme 4"],
    "scripts/bench-perft": f"a benchmark, {LONG}",
    "scripts/bench-gen --men 4 KRMvKN": f"a benchmark, {LONG}",
    "scripts/bench-gen --men 4": f"a benchmark, {LONG}",
    "scripts/bench-set 5": f"the whole 5-men set: 2 hours, {LONG}",
    "scripts/six-men-on-paper": f"reads the 5-men set's statistics, {LONG} to make",
    "scripts/bench-mpi": f"a benchmark, {LONG}",
    "mpirun -np 2 build/mktb-mpi gen KMMMvKM": f"a 6-men ending over 2 ranks: 5 minutes, {LONG}",
    "scripts/match-fairy-stockfish": f"games at 100 ms a move, {LONG}",
    "scripts/match-elo": f"260 games: 30 minutes, {LONG}",
    "scripts/bench-probe": f"a benchmark on the 5-men set, {LONG}",
    "scripts/match-report": "tests/CMakeLists.txt runs it on a small sample",
    "scripts/compare-xiangqitb": "reads xiangqitb's tables, which scripts/bench-xiangqi makes",
    "scripts/bench-fairy-stockfish": f"a benchmark, {LONG}",
    "scripts/bench-serve": f"a benchmark, {LONG}",
}
# What some commands must print (a value the README states beside the command).
EXPECT = {
    "build/mktb perft \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\" 4":
        "3290240",  # Xiangqi's perft 4 (the chess programming wiki; Fairy-Stockfish agrees)
    "build/mktb probe \"3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1\"": "e2d2",  # "Red mates in 1: e2d2"
    "build/mktb probe \"4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1\"": "Red mates in 2",  # "Red mates in 2"
}

if os.path.realpath(os.path.join(repo, "build")) != build:
    print(f"skipped: the README's commands name build/, and this build is {build}")
    sys.exit(77)

commands = readme_commands(os.path.join(repo, "README.md"))
unknown = [c for c in commands if c not in PLAN]
check("every command of the README is known to this test", not unknown,
      "add to PLAN in tests/readme.py: " + "; ".join(unknown))

env = dict(os.environ)
env.pop("MKTB_TABLES", None)
env["PATH"] = env.get("PATH", "") + ":/usr/games"  # where Debian puts fairy-stockfish
fresh = tempfile.mkdtemp(prefix="mktb-readme-")
os.symlink(build, os.path.join(fresh, "build"))
os.symlink(os.path.join(repo, "scripts"), os.path.join(fresh, "scripts"))
shutil.copytree(tables4, os.path.join(fresh, "tables"),
                ignore=shutil.ignore_patterns("*.lock", "*.tmp"))
statistics = os.path.join(repo, "docs", "statistics-xiangqi.txt")
statistics_before = open(statistics, "rb").read()


def run(command, timeout=600):
    if command == "scripts/run":
        return subprocess.run(["scripts/run"], cwd=repo, capture_output=True, text=True,
                              timeout=timeout, env=dict(env, MKTB_TABLES=os.path.join(fresh, "tables"),
                                                        MKTB_REPORT=os.path.join(fresh, "report")))
    return subprocess.run(command, shell=True, cwd=fresh, capture_output=True, text=True,
                          timeout=timeout, env=env)


def serve(args):
    """`mktb serve ARGS` (port 0 where the README's 8080 might be taken): it starts, serves the
    page and an answer, and stops on SIGTERM."""
    if "--port" not in args:
        args += " --port 0"
    server = subprocess.Popen(f"exec build/mktb serve {args}", shell=True, cwd=fresh, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = re.search(r":(\d+)/", line)
        ok = bool(port)
        if ok:
            base = f"http://127.0.0.1:{port.group(1)}"
            with urllib.request.urlopen(base + "/", timeout=10) as r:
                ok = r.status == 200
            with urllib.request.urlopen(base + "/api/probe?fen=" + KRVK_FEN.replace(" ", "_"),
                                        timeout=10) as r:
                ok = ok and b"h1h8" in r.read()
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=20)
    return ok and code == 0, line + server.stderr.read()


def uci(args):
    """`mktb uci ARGS`: the handshake, a table position's best move."""
    out = subprocess.run(f"build/mktb {args}", shell=True, cwd=fresh, env=env, text=True,
                         capture_output=True, timeout=60,
                         input=f"uci\nisready\nposition fen {KRVK_FEN}\ngo movetime 100\n")
    return "uciok" in out.stdout and "bestmove h1h8" in out.stdout, out.stdout[-300:] + out.stderr


started = time.monotonic()
for readme_command in dict.fromkeys(commands):  # each once, where the README first names it
    plan = PLAN.get(readme_command)
    if isinstance(plan, str):
        print(f"skipped: {readme_command} ({plan})")
        continue
    for command in plan or [readme_command]:
        began = time.monotonic()
        if command.startswith("serve"):
            ok, detail = serve(command[len("serve"):].strip())
        elif command.startswith("uci"):
            ok, detail = uci(command)
        else:
            if "fairy-stockfish" in command and not shutil.which("fairy-stockfish", path=env["PATH"]):
                print(f"skipped: {command} (no fairy-stockfish)")
                continue
            out = run(command)
            ok, detail = out.returncode == 0, f"exit {out.returncode}: {out.stderr[-500:]}"
            if ok and readme_command in EXPECT and command == readme_command:
                ok, detail = EXPECT[readme_command] in out.stdout, out.stdout[-300:]
        check(f"{command} ({time.monotonic() - began:.1f} s)", ok, detail)

check("the tracked docs/statistics-xiangqi.txt left as it was",
      open(statistics, "rb").read() == statistics_before)
print(f"{len(set(commands))} README commands in {time.monotonic() - started:.0f} s")
shutil.rmtree(fresh, ignore_errors=True)
if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("all README commands ran")
