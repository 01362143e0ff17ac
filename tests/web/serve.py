#!/usr/bin/env python3
"""tests/web/serve.py MKTB TABLES [LOAD] - `mktb serve` on the 4-men tables, over real HTTP:

- every /api/probe answer for a set of positions equals `mktb probe --json` (same count, same
  line), and the hand-checked ones carry their values (Rh8 mates at once; Kxc2 draws; a board
  count with one move left is won only by Rxa2; the spec's example count of docs/rules.md 3.4);
- bad input gets 400 with a message naming the fault, absent material or rules 404, never a crash;
- /api/endings lists every table with the statistics file beside it; /board.svg and /man/*.svg
  are well-formed SVG; the page's files are served with their types;
- LOAD (bench/serve_load) sends a few thousand requests over several connections: no error;
- text that is not UTF-8 (in the path, the method, a parameter's name or value) gets 400, and
  the server lives on;
- slow clients (a header line every 3 s) are cut at the request deadline and do not delay
  others; 200 simultaneous connections are all answered quickly (the listen backlog);
- a damaged table gets HTTP 500 naming the file, never an answer; one whose header is damaged
  is left out at start (reported, its name's bytes escaped) while the others answer;
- tables truncated, rewritten in place, deleted (their directory too) under the server: it lives
  on, never answers wrong, and answers again once the files are whole;
- other methods get 405 at once (their body unread), a path too long 414 saying so (HEAD: no
  body), a malformed request line 400 and the connection closed, a GET's body never taken for a
  request, the 101st pipelined request a 503 naming the limit;
- clients that keep connections open, pipeline and never read, or drip their requests from 20
  addresses do not starve good requests (tests/web/starve.py: every good request under 1 s);
- a second server on the same port is refused; a table that appears in a served directory is
  answered from without a restart;
- bad arguments stop the server with a message; SIGTERM stops it cleanly.
"""
import json
import shutil
import tempfile
import os
import signal
import socket
import subprocess
import threading
import time
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

mktb, tables = sys.argv[1], sys.argv[2]
load = sys.argv[3] if len(sys.argv) > 3 else None
failures = []


def check(what, condition, detail=""):
    if not condition:
        failures.append(f"{what}: {detail}")
        print(f"FAILED: {what}: {detail}")


def get(path):
    """(status, content type, body bytes) of GET path."""
    if os.environ.get("MKTB_TEST_VERBOSE"): print("GET", path, flush=True)
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def api(path):
    status, ctype, body = get(path)
    check(f"{path}: JSON", ctype.startswith("application/json"), ctype)
    return status, json.loads(body)


def probe_cli(fen, *args):
    out = subprocess.run([mktb, "probe", fen, "--json", "--tables", tables, *args],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def start_server(directory, *options):
    """`mktb serve` of DIRECTORY on a free port: the process and its port."""
    process = subprocess.Popen([mktb, "serve", "--tables", directory, "--port", "0", *options],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return process, int(process.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0])


DEADLINE = 3  # seconds a request may take to arrive (--request-deadline)
server, port = start_server(tables, "--request-deadline", str(DEADLINE))
base = f"http://127.0.0.1:{port}"
try:
    # 1. The API answers what `mktb probe --json` answers.
    cases = [  # fen, API parameters, the same as CLI flags
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", {}, []),
        ("8/8/8/8/8/2k5/2R5/6K1 b - - 0 1", {}, []),
        ("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1", {"line": "1"}, ["--line"]),
        ("k7/8/8/8/8/8/m7/R3K3 w - 128 128 1", {}, []),
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", {"count": "pieces:16"}, ["--count", "pieces:16"]),
        ("k7/8/8/8/8/8/m7/R3K3 w - - 0 1", {"count": "board:60"}, ["--count", "board:60"]),
        ("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", {}, []),
        ("7k/8/8/8/8/8/1SS5/K7 b - - 0 1", {}, []),
        ("k7/1R6/1K6/8/8/8/8/8 b - - 0 1", {}, []),  # stalemate
    ]
    answers = {}
    for fen, params, flags in cases:
        query = urllib.parse.urlencode({"fen": fen.replace(" ", "_"), **params})
        status, answer = api(f"/api/probe?{query}")
        check(f"probe {fen} {params}: status", status == 200, f"{status} {answer}")
        expected = probe_cli(fen, *flags)
        check(f"probe {fen} {params}: equals mktb probe --json", answer == expected,
              f"\n  API: {answer}\n  CLI: {expected}")
        answers[(fen, tuple(params.items()))] = answer

    a = answers[("k7/8/1K6/8/8/8/8/7R w - - 0 1", ())]
    check("KRvK mate in 1", a["category"] == "win" and a["dtm"] == 1 and a["mate_in"] == 1, a)
    top = a["moves"][0]
    check("KRvK Rh8#", top["uci"] == "h1h8" and top["san"] == "Rh8#" and top["checkmate"] and top["category"] == "loss"
          and top["dtm"] == 0 and top["best"], top)
    # Fresh pieces' honour for K+Ruea vs K: L = 16, three men, attacker to move (docs/rules.md 3.1).
    check("KRvK fresh count", a["count"]["limit_moves"] == 16 and a["count"]["announced"] == 3
          and a["counted"]["moves_available"] == 14 and a["count"]["counter"] == "black", a["count"])
    a = answers[("8/8/8/8/8/2k5/2R5/6K1 b - - 0 1", ())]
    kxc2 = [m for m in a["moves"] if m["uci"] == "c3c2"]
    check("Kxc2 draws", a["category"] == "draw" and kxc2 and kxc2[0]["capture"] and kxc2[0]["san"] == "Kxc2"
          and kxc2[0]["conversion"] and kxc2[0]["best"] and a["moves"][0]["uci"] == "c3c2", a)
    a = answers[("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1", (("line", "1"),))]
    # docs/rules.md 3.4: L = 44 (one Khon), N = 4, Black to move: 40 attacker moves.
    check("spec's count example", a["count"]["limit_moves"] == 44 and a["count"]["announced"] == 4
          and a["counted"]["moves_available"] == 40 and a["line"], a["count"])
    a = answers[("k7/8/8/8/8/8/m7/R3K3 w - 128 128 1", ())]
    check("board count, one move left", a["verdict"] ==
          "White wins within the count: bares the Black king in 1 of 1 moves, then mates in 12 of "
          "13 moves (pieces' honour)"
          and a["counted"]["baring"] == {"moves": 1, "then": {
              "category": "loss", "moves_needed": 12, "moves_available": 13}}
          and [m["uci"] for m in a["moves"] if m["best"]] == ["a1a2"], a["verdict"])
    a = answers[("k7/1R6/1K6/8/8/8/8/8 b - - 0 1", ())]
    check("stalemate", a["stalemate"] and a["category"] == "draw" and a["moves"] == [], a)
    a = answers[("k7/8/1K6/8/8/8/8/7R w - - 0 1", (("count", "pieces:16"),))]
    check("pieces:16 leaves one move", a["counted"]["moves_available"] == 1
          and a["counted"]["category"] == "win", a["counted"])
    # A move's FEN carries the count on: playing Rh8 makes the ply 6 (docs/rules.md 3.4).
    check("move FEN", top["fen"] == "k6R/8/1K6/8/8/8/8/8 b - 32 6 1", top["fen"])
    status, _ = api("/api/probe?fen=k7/8/1K6/8/8/8/8/7R w - - 0 1".replace(" ", "%20"))
    check("spaces as well as underscores", status == 200, status)

    # 2. Bad input: 400 with the fault named; absent things: 404.
    for path, code, words in [
        ("/api/probe?fen=k7/K7/8/8/8/8/8/8_w_-_-_0_1", 400, "bad FEN"),
        ("/api/probe?fen=rubbish", 400, "bad FEN"),
        ("/api/probe", 400, "missing parameter 'fen'"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=drow", 400,
         "counter_mate takes win or draw, not 'drow'"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&colour=blue", 400, "unknown parameter 'colour'"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=pieces:99", 400, "pieces:C or board:C"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=board:3", 400, "men on both sides"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&line=maybe", 400, "line takes 1 or 0"),
        ("/api/probe?fen=8/8/8/3k4/8/8/8/RRS1K3_w_-_-_0_1", 404, "no table for KRRSvK"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=draw", 404,
         "no tables built under"),
        ("/api/endings/KRRSvK", 404, "no table for KRRSvK"),
        ("/api/endings/Kxyz", 400, "is not an ending"),
        ("/nothing/here", 404, "no such page"),
        ("/board.svg?fen=k7/9/8/8/8/8/8/7R_w", 400, "not a man"),
        ("/board.svg?fen=k7/8/8/8/8/8/8/7R_w&arrow=z9h1", 400, "is not a square"),
        ("/man/X.svg", 404, "is not a man"),
    ]:
        status, body = api(path)
        check(f"{path}: status", status == code, f"{status} {body}")
        check(f"{path}: message", words in body.get("error", ""), body)

    # The rules not served are named in words, not by the options' names.
    status, body = api("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=draw")
    check("rules not served: in words", "a mate by the counting side only draws" in body.get("error", "")
          and "counter_mate" not in body.get("error", ""), body)
    # The page in Thai (lang=th) gets every error in Thai: an illegal position, a count out of
    # range, rules not served, a missing table; and Xiangqi's verdicts and moves.
    thai = lambda text: any("\u0e00" <= c <= "\u0e7f" for c in text)
    for path, code, words in [
        ("/api/probe?fen=k7/K7/8/8/8/8/8/8_w_-_-_0_1&lang=th", 400, "ขุนสองฝ่ายยืนติดกัน"),
        ("/api/probe?fen=7k/8/8/8/8/8/8/K6R_w_-_-_0_1&lang=th", 400, "ฝ่ายที่ไม่ได้เดิน (ดำ) ถูกรุกอยู่"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=pieces:99&lang=th", 400, "การนับ: "),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=pieces:2&lang=th", 400,
         "การนับเริ่มที่จำนวนหมาก 3 ตัว"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=board:3&lang=th", 400,
         "ทั้งสองฝ่ายยังมีหมาก"),
        ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=draw&lang=th", 404,
         "ฝ่ายที่นับรุกจนได้เพียงเสมอ"),
        ("/api/probe?fen=8/8/8/3k4/8/8/8/RRS1K3_w_-_-_0_1&lang=th", 404,
         "ไม่มีตารางของ KRRSvK"),
        ("/api/probe?fen=4k4/9/9/9/9/9/9/9/4R4/3K5_w_-_-_0_1&lang=th", 400, "ไม่ใช่ตาของดำ"),
    ]:
        status, body = api(path)
        error = body.get("error", "")
        check(f"{path}: in Thai", status == code and words in error and thai(error)
              and not any(w in error for w in ("FEN:", "count:", "counter_mate", "draw")), f"{status} {body}")

    # 2b. Text that is not UTF-8 anywhere in a request: 400 naming the part, never a crash.
    for path, part in [("/%ff", "the path"), ("/api/endings/%ff", "the path"),
                       ("/api/probe?%ff=1", "a parameter's name"),
                       ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&count=%ff", "parameter 'count'"),
                       ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&line=%ff", "parameter 'line'"),
                       ("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1&counter_mate=%ff",
                        "parameter 'counter_mate'"),
                       ("/board.svg?fen=%ff", "parameter 'fen'"), ("/api/endings?%ff=1", "a parameter's name"),
                       ("/api/probe?fen=%c3%28", "parameter 'fen'"),  # a broken two-byte sequence
                       ("/api/probe?fen=%ed%a0%80", "parameter 'fen'")]:  # a surrogate
        status, body = api(path)
        check(f"{path}: 400", status == 400 and body.get("error") == f"{part} is not valid UTF-8",
              f"{status} {body}")

    def raw(data, timeout=10):
        """The bytes the server answers to `data` sent on a fresh connection."""
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(data)
            out = b""
            while chunk := s.recv(4096):
                out += chunk
            return out

    for request in [b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n", b"\xff\xfe / HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"GET /api/endings/%ff HTTP/1.0\r\n\r\n"]:
        answer = raw(request)
        check(f"raw {request!r}: 400", answer.startswith(b"HTTP/1.1 400"), answer[:80])
    check("alive after bad UTF-8", get("/api/endings")[0] == 200)

    # 2b'. Other methods, a path too long, a malformed request line (then the connection ends:
    # the lines after it are not read as requests).
    answer = raw(b"DELETE /api/endings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    check("DELETE: 405 naming GET", answer.startswith(b"HTTP/1.1 405") and b"Allow: GET" in answer,
          answer[:200])
    answer = raw(b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    check("414 says the path is too long", answer.startswith(b"HTTP/1.1 414")
          and b"the path is too long" in answer, answer[:200])
    answer = raw(b"BAD\r\nGET /api/endings HTTP/1.1\r\nHost: x\r\n\r\n")
    check("malformed request line: one 400, then closed", answer.startswith(b"HTTP/1.1 400")
          and answer.count(b"HTTP/1.1 ") == 1, answer[:300])
    for line in [b"GET / HTTP/1.5", b"GET  HTTP/1.1", b"get / HTTP/1.1", b"GET /x HTTP/1.1 x"]:
        answer = raw(line + b"\r\nGET /api/endings HTTP/1.1\r\nHost: x\r\n\r\n")
        check(f"{line!r}: one 400 saying the connection ends", answer.startswith(b"HTTP/1.1 400")
              and answer.count(b"HTTP/1.1 ") == 1 and b"Connection: close" in answer, answer[:300])
    # A body the server does not read ends the connection: it is not taken for a request.
    smuggled = b"GET /api/endings HTTP/1.1\r\nHost: x\r\n\r\n"
    answer = raw(b"GET /api/endings/KRvK HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                 % len(smuggled) + smuggled)
    check("GET with a body: answered once, the body not read as a request",
          answer.count(b"HTTP/1.1 ") == 1 and b"Connection: close" in answer, answer[:300])
    answer = raw(b"HEAD /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    check("HEAD too long: 414 without a body", answer.startswith(b"HTTP/1.1 414")
          and answer.endswith(b"\r\n\r\n"), answer[-100:])
    for method in [b"POST", b"PUT", b"PATCH", b"OPTIONS"]:  # a body announced, never sent
        started = time.monotonic()
        answer = raw(method + b" /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        took = time.monotonic() - started
        check(f"{method.decode()}: 405 at once ({took:.2f} s), naming GET",
              answer.startswith(b"HTTP/1.1 405") and b"Allow: GET, HEAD" in answer and took < 1,
              answer[:200])
    # Pipelining past the per-connection limit: 100 answered, the last saying that the
    # connection ends and why; the connection closed gracefully (no reset losing answers).
    answer = raw(b"GET /api/endings/KRvK HTTP/1.1\r\nHost: x\r\n\r\n" * 150)
    last = answer.split(b"HTTP/1.1 200")[-1]
    check("150 pipelined: 100 answered, the last saying why the connection ends",
          answer.count(b"HTTP/1.1 200") == 100 and answer.count(b"HTTP/1.1 ") == 100
          and b"Connection: close" in last and b"X-Connection-Ends: at most 100 requests" in last
          and answer.endswith(b"}"), answer[-300:])

    # 2b'''. A second server on the same port is refused, naming the port.
    run = subprocess.run([mktb, "serve", "--tables", tables, "--port", str(port)],
                         capture_output=True, text=True, timeout=30)
    check("a second server on the port: refused", run.returncode == 1 and "is in use" in run.stderr,
          f"exit {run.returncode}: {run.stderr}")

    # 2b''''. Beyond the tables: the 404 says what the served tables hold (every ending up
    # to 4 men, made by the test) and whether mktb gen could make the missing ones.
    status, body = api("/api/probe?fen=4k3/8/8/3m4/8/2S5/3K4/R4M2_w_-_-_0_1")
    check("beyond the tables: what is held", status == 404 and body["tables"]["complete_up_to"] >= 4
          and "every ending up to" in body["error"] and body["can_generate"] and "engine" not in body,
          body)
    status, body = api("/api/probe?fen=rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR_w_-_-_0_1")
    check("beyond the tables: 32 men cannot be generated", status == 404
          and body["men"] == 32 and not body["can_generate"], body)
    # With a reference engine: its move (legal, by `mktb perft --divide`) and score, marked.
    engine = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
    if not engine:
        print("skipped: the engine's word beyond the tables (no fairy-stockfish)")
    else:
        fen = "4k3/8/8/3m4/8/2S5/3K4/R4M2 w - - 0 1"
        legal = subprocess.run([mktb, "perft", fen, "1", "--divide"], capture_output=True,
                               text=True, check=True).stdout
        legal = {line.split(":")[0] for line in legal.splitlines() if ":" in line}
        adviser, adviser_port = start_server(tables, "--engine-time", "100", "--engine", engine)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{adviser_port}/api/probe?fen="
                                        + fen.replace(" ", "_")) as r:
                status, body = r.status, None
        except urllib.error.HTTPError as e:
            status, body = e.code, json.loads(e.read())
        advice = (body or {}).get("engine", {})
        check("beyond the tables: the engine's word", status == 404
              and advice.get("bestmove") in legal and advice.get("san")
              and "Fairy-Stockfish" in advice.get("engine", "") and advice.get("movetime_ms") == 100
              and ("cp" in advice.get("score", {}) or "mate" in advice.get("score", {})), body)
        adviser.terminate()
        adviser.wait(timeout=30)
    # An engine that never gives a best move (it talks on, as in an endless search): the request
    # still gets the tables' answer within the engine's time and a grace, saying the engine
    # failed, and the server stops at once on SIGTERM afterwards.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write("import sys, time\n"
                     "for line in sys.stdin:\n"
                     "    w = line.split()\n"
                     "    if w[:1] == ['uci']: print('id name Endless\\nuciok', flush=True)\n"
                     "    if w[:1] == ['isready']: print('readyok', flush=True)\n"
                     "    if w[:1] == ['go']:\n"
                     "        for d in range(1, 10**6):\n"
                     "            print(f'info depth {d} score cp 0', flush=True); time.sleep(0.05)\n")
    endless, endless_port = start_server(tables, "--engine-time", "100", "--engine", sys.executable,
                                         script.name)
    try:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{endless_port}/api/probe?fen="
                                        "4k3/8/8/3m4/8/2S5/3K4/R4M2_w_-_-_0_1", timeout=30) as r:
                status, body = r.status, None
        except urllib.error.HTTPError as e:
            status, body = e.code, json.loads(e.read())
        took = time.monotonic() - started
        advice = (body or {}).get("engine", {})
        check("an engine without a best move: the tables' answer, the failure said", status == 404
              and body.get("material") == "KRSMvKM" and "no best move" in advice.get("failed", "")
              and took < 10, (took, body))
        started = time.monotonic()
        endless.terminate()
        endless.wait(timeout=20)
        check("an engine without a best move: SIGTERM stops the server", endless.returncode == 0
              and time.monotonic() - started < 5, (endless.returncode, time.monotonic() - started))
    finally:
        if endless.poll() is None:
            endless.kill()
        os.unlink(script.name)
    run = subprocess.run([mktb, "serve", "--tables", tables, "--port", "0", "--engine",
                          "/nonexistent/engine"], capture_output=True, text=True, timeout=30)
    check("serve --engine that cannot start: refused", run.returncode == 1
          and "cannot start /nonexistent/engine" in run.stderr, run.stderr)

    # 2c. Eight slow clients, each sending a header line every 3 s: cut at the deadline, and
    # meanwhile every other request is answered at once.
    cut_after = []

    def slow_client():
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"GET /api/endings HTTP/1.1\r\n")
            started = time.monotonic()
            try:
                for k in range(10):
                    time.sleep(3 if k == 0 else 1)
                    s.sendall(b"X-Slow: %d\r\n" % k)
                cut_after.append(None)
            except OSError:
                cut_after.append(time.monotonic() - started)

    slow = [threading.Thread(target=slow_client) for _ in range(8)]
    for t in slow:
        t.start()
    time.sleep(0.5)
    waits = []
    for _ in range(20):
        started = time.monotonic()
        status, _, _ = get("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1")
        waits.append(time.monotonic() - started)
        check("answered beside slow clients", status == 200, status)
    for t in slow:
        t.join()
    check("others answered at once while 8 clients are slow", max(waits) < 1.0, waits)
    check("slow clients cut at the deadline",
          all(c is not None and c < DEADLINE + 3 for c in cut_after), cut_after)

    # 2d. 200 connections at once (the listen backlog): every one answered, the slowest fast.
    latencies = []

    def one_request():
        started = time.monotonic()
        answer = raw(b"GET /api/endings/KRvK HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        latencies.append((time.monotonic() - started, answer.startswith(b"HTTP/1.1 200")))

    burst = [threading.Thread(target=one_request) for _ in range(200)]
    for t in burst:
        t.start()
    for t in burst:
        t.join()
    slowest = max(latencies)[0]
    check("200 simultaneous connections answered", all(ok for _, ok in latencies)
          and len(latencies) == 200, sum(ok for _, ok in latencies))
    check("200 simultaneous connections: the slowest under 0.9 s (no SYN retransmit)",
          slowest < 0.9, slowest)

    # 3. The endings and their statistics.
    status, endings = api("/api/endings")
    names = {e["ending"] for e in endings["endings"]}
    on_disk = {f[:-5] for f in os.listdir(tables) if f.endswith(".mktb")}
    check("/api/endings lists every table", status == 200 and names == on_disk,
          sorted(on_disk ^ names))
    status, krvk = api("/api/endings/KvKR")  # written either way round
    with open(os.path.join(tables, "KRvK.json")) as f:
        stats = json.load(f)
    check("/api/endings/KRvK", status == 200 and krvk["ending"] == "KRvK"
          and krvk["statistics"] == stats and krvk["men"] == 3, krvk)

    # 4. Diagrams: well-formed SVG, a square per rect, the men, the arrow.
    status, ctype, body = get("/board.svg?fen=k7/8/1K6/8/8/8/8/7R_w&arrow=h1h8&mark=h1&flip=1")
    svg = ET.fromstring(body)
    ns = "{http://www.w3.org/2000/svg}"
    squares = [r for r in svg.iter(ns + "rect") if "data-square" in r.attrib]
    men = [g for g in svg.iter(ns + "g") if g.get("class") == "man"]
    check("board.svg", status == 200 and ctype.startswith("image/svg+xml") and len(squares) == 64
          and len(men) == 3 and len(list(svg.iter(ns + "polygon"))) == 1, (status, ctype))
    for letter in "KMSNRPkmsnrp":
        status, ctype, body = get(f"/man/{letter}.svg")
        check(f"man {letter}", status == 200 and ET.fromstring(body).tag == ns + "svg", status)

    # 5. The page's files.
    for path, kind, words in [("/", "text/html", "<title>mktb"), ("/app.js", "text/javascript", "api/probe"),
                              ("/style.css", "text/css", "#board"), ("/endings", "text/html", "endings.js"),
                              ("/endings.js", "text/javascript", "/api/endings")]:
        status, ctype, body = get(path)
        check(f"page file {path}", status == 200 and ctype.startswith(kind)
              and words in body.decode(), (status, ctype))

    # 6. Load: thousands of requests over several connections at once, none failing.
    if load:
        run = subprocess.run([load, "--port", str(port), "--connections", "8", "--requests", "3000"],
                             capture_output=True, text=True)
        print(run.stdout, end="")
        check("load test", run.returncode == 0 and ", 0 errors" in run.stdout, run.stdout)
        # The same load while 16 slow clients trickle their headers: no error, none held up.
        run = subprocess.run([load, "--port", str(port), "--connections", "8", "--requests", "3000",
                              "--slow", "16"], capture_output=True, text=True, timeout=120)
        print(run.stdout, end="")
        check("load test beside slow clients", run.returncode == 0 and ", 0 errors (16 slow" in run.stdout,
              run.stdout)
        worst = float(run.stdout.split("max ")[1].split()[0]) if "max " in run.stdout else 1e9
        check("nobody held up by the slow clients (max latency under 1 s)", worst < 1e6, worst)
        status, _ = api("/api/endings")
        check("alive after the load", status == 200, status)

    # 6b. The two starvation attacks (tests/web/starve.py): good requests within 1 s beside each
    # (last: the attackers' connections take a few seconds to drain).
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import starve
    for attack in ("keepalive", "pipeline", "drip"):
        latencies = starve.measure(port, attack, goods=12)
        check(f"good requests beside the {attack} attack: all under 1 s ({starve.summary(latencies)})",
              latencies[-1] < 1.0, latencies)

finally:
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "hung"
    check("SIGTERM stops the server", code == 0, code)

# 7. A damaged table is reported (HTTP 500 naming the file), never answered; one whose header is
# damaged stops the server at start.
with tempfile.TemporaryDirectory() as scratch:
    for name in os.listdir(tables):
        if name.startswith("KRvK."):
            shutil.copy(os.path.join(tables, name), scratch)
    path = os.path.join(scratch, "KRvK.mktb")
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0xFF  # a byte inside the compressed blocks
    open(path, "wb").write(data)
    server, port = start_server(scratch)
    try:
        base = f"http://127.0.0.1:{port}"
        codes = set()
        for fen in ["k7/8/1K6/8/8/8/8/7R_w_-_-_0_1", "8/8/8/8/8/2k5/2R5/6K1_b_-_-_0_1",
                    "7k/8/8/8/8/8/8/KR6_w_-_-_0_1", "8/8/3k4/8/8/8/8/K6R_b_-_-_0_1"]:
            status, body = api(f"/api/probe?fen={fen}")
            codes.add(status)
            check(f"damaged table: {fen}", status == 500 and "KRvK.mktb" in body.get("error", ""),
                  f"{status} {body}")
    finally:
        server.terminate()
        server.wait(timeout=20)
    data[8] ^= 0xFF  # the header
    open(path, "wb").write(data)
    run = subprocess.run([mktb, "serve", "--tables", scratch, "--port", "0"],
                         capture_output=True, text=True, timeout=30)
    check("damaged header", run.returncode == 1 and "KRvK.mktb" in run.stderr,
          f"exit {run.returncode}: {run.stderr}")

# 7b. One damaged header among good tables: left out and reported, its name's bytes escaped;
# the others answer. A table written into the directory while the server runs is answered
# from without a restart.
with tempfile.TemporaryDirectory() as scratch:
    for name in os.listdir(tables):
        if name.startswith(("KRvK.", "KMvK.")):
            shutil.copy(os.path.join(tables, name), scratch)
    path = os.path.join(scratch, "KMvK.mktb")
    data = bytearray(open(path, "rb").read())
    data[16:24] = b"\x1b[31mKXv"  # the header's ending name: a terminal escape
    open(path, "wb").write(data)
    server, port = start_server(scratch)
    try:
        base = f"http://127.0.0.1:{port}"
        status, _ = api("/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1")
        check("the good table answers beside a damaged one", status == 200, status)
        status, body = api("/api/endings")
        check("the damaged table is not listed", [e["ending"] for e in body["endings"]] == ["KRvK"], body)
        fen = "k7/8/1K6/8/8/8/8/7S_w_-_-_0_1"
        check("KSvK absent before", api(f"/api/probe?fen={fen}")[0] == 404)
        for name in ("KSvK.mktb", "KSvK.json"):
            shutil.copy(os.path.join(tables, name), os.path.join(scratch, name + ".tmp"))
            os.rename(os.path.join(scratch, name + ".tmp"), os.path.join(scratch, name))
        for _ in range(50):
            if api(f"/api/probe?fen={fen}")[0] == 200:
                break
            time.sleep(0.2)
        check("a table that appears is answered without a restart", api(f"/api/probe?fen={fen}")[0] == 200)
    finally:
        server.terminate()
        out, err = server.communicate(timeout=20)
    check("the damaged table reported, escaped", "left out" in err and "KMvK.mktb" in err
          and "\x1b" not in err and "\\x1B" in err, err)
    check("the new table said", "new tables in" in out and "KSvK" in out, out)

# 7c. Tables changed under the server (truncated, rewritten in place, deleted, their directory
# removed and brought back): the server lives on and never answers wrong; a changed table is
# refused (5xx naming it) or answered from blocks read before, a deleted one is absent (404
# naming the material), and a whole file back is answered from again.
with tempfile.TemporaryDirectory() as parent:
    served = os.path.join(parent, "served")
    os.mkdir(served)
    for name in ("KRvKM", "KRvK", "KMvK"):
        shutil.copy(os.path.join(tables, name + ".mktb"), served)
    subprocess.run([mktb, "gen", "--game", "xiangqi", "KRvKA", "--tables", served],
                   capture_output=True, check=True, timeout=300)
    kept = os.path.join(parent, "kept")
    shutil.copytree(served, kept)
    fens = [f"{k}/8/8/8/{m}/8/8/R3K3_{side}_-_-_0_1" for k in ("k7", "1k6", "2k5", "7k")
            for m in ("3m4", "m7", "6m1") for side in "wb"]
    fens += [f"{k}/4a4/9/9/9/9/9/9/{r}/{K}_{side}_-_-_0_1" for k in ("4k4", "3k5", "5k3")
             for r in ("R8", "8R", "1R7") for K in ("3K5", "5K3") for side in "wb"]
    expected = {}
    for fen in fens:
        run = subprocess.run([mktb, "probe", fen.replace("_", " "), "--json", "--tables", kept],
                             capture_output=True, text=True)
        if run.returncode == 0:
            expected[fen] = json.loads(run.stdout)
    check("changed tables: the positions are legal", len(expected) > 40, len(expected))
    server, port = start_server(served)
    base = f"http://127.0.0.1:{port}"

    def sweep(what, absent_ok):
        """Probes every position: counts of (right, refused, absent); checks none is wrong."""
        right = refused = absent = 0
        for fen, answer in expected.items():
            status, body = api("/api/probe?fen=" + urllib.parse.quote(fen))
            if status == 200:
                check(f"{what}: {fen} answered right", body == answer, str(body)[:200])
                right += body == answer
            elif status == 404 and absent_ok:
                check(f"{what}: {fen} absent, named", body.get("material") == answer["material"], body)
                absent += 1
            else:
                check(f"{what}: {fen} refused, the table named", status >= 500
                      and answer["material"] in body.get("error", ""), (status, body))
                refused += 1
        check(f"{what}: the server lives", server.poll() is None)
        return right, refused, absent

    def until_whole(what):
        for _ in range(50):
            if sweep(what + " (waiting)", True)[0] == len(expected):
                break
            time.sleep(0.2)
        check(f"{what}: every position answered again", sweep(what, False)[0] == len(expected))

    try:
        # Half the Xiangqi positions read before: their blocks are in the cache. (Not Makruk's:
        # a board's honour answer walks the baring path, which reads most of KRvKM's blocks,
        # and then nothing would be left to refuse.)
        for fen in [f for f in expected if f.count("/") == 9][::2]:
            api("/api/probe?fen=" + urllib.parse.quote(fen))
        for name in ("KRvKM.mktb", "KRvKA.xq.mktb"):
            path = os.path.join(served, name)
            os.truncate(path, os.path.getsize(path) // 2)
        right, refused, _ = sweep("truncated", False)
        check("truncated: some refused", refused > 0, (right, refused))
        for name in ("KRvKM.mktb", "KRvKA.xq.mktb"):  # written back in place, as cp does
            with open(os.path.join(served, name), "r+b") as f:
                f.write(open(os.path.join(kept, name), "rb").read())
        until_whole("written back in place")
        for name in ("KRvKM.mktb", "KRvKA.xq.mktb"):
            os.remove(os.path.join(served, name))
        time.sleep(2.5)  # the directory looked at again
        right, _, absent = sweep("deleted", True)
        check("deleted: absent", absent > 0, (right, absent))
        status, _ = api("/api/endings")
        check("deleted: /api/endings answers", status == 200, status)
        shutil.rmtree(served)
        time.sleep(2.5)
        sweep("directory removed", True)
        status, _ = api("/api/endings")
        check("directory removed: /api/endings answers", status == 200, status)
        shutil.copytree(kept, served)
        until_whole("directory back")
    finally:
        server.terminate()
        server.communicate(timeout=20)

# 9. Xiangqi: a directory holding both games' tables (KRvK of Makruk beside Xiangqi's KRvKA and
# KRvK); /api/probe answers a Xiangqi FEN as `mktb probe --json` does, each move with its WXF
# notation (hand-checked: Red's chariot on the e-file; the shortest mate's first move);
# /api/endings lists both games, KRvK?game=xiangqi names the Xiangqi one; the count refused.
with tempfile.TemporaryDirectory() as both:
    for name in ("KRvK.mktb", "KRvK.json"):
        shutil.copy(os.path.join(tables, name), both)
    subprocess.run([mktb, "gen", "--game", "xiangqi", "KRvKA", "--tables", both],
                   capture_output=True, check=True, timeout=300)
    server, port = start_server(both)
    base = f"http://127.0.0.1:{port}"
    try:
        for fen in ["3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
                    "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1"]:
            for extra in ("", "&line=1"):
                status, answer = api("/api/probe?fen=" + urllib.parse.quote(fen.replace(" ", "_")) + extra)
                expected = json.loads(subprocess.run(
                    [mktb, "probe", fen, "--json", "--tables", both] + (["--line"] if extra else []),
                    capture_output=True, text=True, check=True).stdout)
                check(f"xiangqi {fen}{extra}: equals mktb probe --json", status == 200 and answer == expected,
                      (status, str(answer)[:300]))
        status, answer = api("/api/probe?fen=" + urllib.parse.quote("3k5/9/9/9/9/9/9/9/4R4/4K4_w_-_-_0_1"))
        moves = {m["uci"]: m["wxf"] for m in answer["moves"]}
        # Red's chariot on e2 is on Red's 5th file: to d2 is "R5=6", to e9 seven ranks up "R5+7".
        check("xiangqi: WXF of each move", moves.get("e2d2") == "R5=6" and moves.get("e2e9") == "R5+7"
              and answer["moves"][0]["uci"] == "e2d2" and answer["category"] == "win", moves)
        check("xiangqi: the game named", answer["game"] == "xiangqi")
        # In Thai: the verdict and each move's value (Red mates in 2: "แดงรุกจนใน 2 ตา").
        status, answer = api("/api/probe?fen=4k4/4a4/9/9/9/9/9/9/4R4/3K5_w_-_-_0_1&lang=th")
        check("xiangqi in Thai: the verdict and the moves", status == 200
              and answer["verdict"] == "แดงรุกจนใน 2 ตา" and answer["moves"][0]["text"]["pure"] == "รุกจนใน 2 ตา",
              answer.get("verdict"))
        status, answer = api("/api/probe?fen=3k5/9/9/9/9/9/9/9/4C4/4K4_w_-_-_0_1&lang=th")
        check("xiangqi in Thai: no table", status == 404 and "ไม่มีตารางหมากรุกจีนของ KCvK" in answer["error"], answer)
        status, answer = api("/api/probe?fen=3k5/9/9/9/9/9/9/9/4R4/4K4_w_-_-_0_1&count=pieces:3")
        check("xiangqi: a count refused", status == 400 and "no count" in answer["error"], answer)
        status, answer = api("/api/probe?fen=3k5/9/9/9/9/9/9/9/4R4/4K5_w_-_-_0_1")
        check("xiangqi: a bad FEN named", status == 400 and "bad Xiangqi FEN" in answer["error"], answer)
        status, answer = api("/api/probe?fen=3k5/9/9/9/9/9/9/9/4C4/4K4_w_-_-_0_1")
        # The fields the page needs, as for Makruk: the men, whether this machine can make it,
        # and the command that does (KCvK: three men, a few megabytes).
        check("xiangqi: no table, named, with how to make it", status == 404 and answer["material"] == "KCvK"
              and answer.get("men") == 3 and answer.get("can_generate") is True
              and answer.get("command") == "mktb gen --game xiangqi KCvK", answer)
        status, listed = api("/api/endings")
        games = {(e["game"], e["ending"]) for e in listed["endings"]}
        check("endings of both games", {("makruk", "KRvK"), ("xiangqi", "KRvK"), ("xiangqi", "KRvKA")} <= games, games)
        status, one = api("/api/endings/KRvK?game=xiangqi")
        check("KRvK?game=xiangqi is Xiangqi's", status == 200 and one["game"] == "xiangqi", one)
        status, one = api("/api/endings/KRvK")
        check("KRvK alone is Makruk's", status == 200 and one["game"] == "makruk", one)
    finally:
        server.terminate()
        server.communicate(timeout=20)

# 9b. One directory per game: `--tables` once per directory, whatever game each holds. Each game
# answers from its own (a Makruk table of the default rules beside Xiangqi's of none), both are
# listed, the rule sets offered are Makruk's only; a Makruk table missing is named with the same
# fields as a Xiangqi one (hand-checked: KMvK has 3 men, "mktb gen KMvK" makes it).
with tempfile.TemporaryDirectory() as makruk_dir, tempfile.TemporaryDirectory() as xiangqi_dir:
    for name in ("KRvK.mktb", "KRvK.json"):
        shutil.copy(os.path.join(tables, name), makruk_dir)
    subprocess.run([mktb, "gen", "--game", "xiangqi", "KRvK", "--tables", xiangqi_dir],
                   capture_output=True, check=True, timeout=300)
    server, port = start_server(makruk_dir, "--tables", xiangqi_dir)
    base = f"http://127.0.0.1:{port}"
    try:
        status, answer = api("/api/probe?fen=3k5/9/9/9/9/9/9/9/4R4/4K4_w_-_-_0_1")
        check("two directories: Xiangqi answered", status == 200 and answer.get("mate_in") == 1, answer)
        status, answer = api("/api/probe?fen=8/8/8/4k3/8/8/8/R3K3_w_-_-_0_1")
        check("two directories: Makruk answered", status == 200 and answer.get("category") == "win", answer)
        status, listed = api("/api/endings")
        games = {(e["game"], e["ending"]) for e in listed.get("endings", [])}
        check("two directories: both games listed", games == {("makruk", "KRvK"), ("xiangqi", "KRvK"), ("xiangqi", "KvK")}, listed)
        status, rules = api("/api/rules")
        check("two directories: Makruk's rule set alone offered", status == 200 and len(rules["served"]) == 1, rules)
        status, answer = api("/api/probe?fen=8/8/8/4k3/8/8/8/M3K3_w_-_-_0_1")
        check("two directories: a Makruk table missing, with how to make it", status == 404
              and answer.get("men") == 3 and answer.get("can_generate") is True
              and answer.get("command") == "mktb gen KMvK", answer)
    finally:
        server.terminate()
        server.communicate(timeout=20)
    run = subprocess.run([mktb, "serve", "--tables", xiangqi_dir, "--tables", xiangqi_dir],
                         capture_output=True, text=True, timeout=30)
    check("the same Xiangqi table in two directories refused", run.returncode == 2
          and "same Xiangqi table (KRvK) of the rules asian" in run.stderr, run.stderr)

# 9c. Xiangqi's rule sets side by side (docs/rules-xiangqi.md §5): a directory of check and one of
# none, each holding KRvKN and its children; a request names its set (`rules=`, asian when it
# does not) and is answered from that directory. The hold of docs/rules-xiangqi.md §5 is won for
# Red under check (Black holds only by checking forever) and a draw under none. Both directories
# hold KRvK and KNvK (armless: every set's), which is no clash; two of one set are (9b).
with tempfile.TemporaryDirectory() as check_dir, tempfile.TemporaryDirectory() as none_dir:
    for rules, where in (("check", check_dir), ("none", none_dir)):
        subprocess.run([mktb, "gen", "--game", "xiangqi", "--rules", rules, "KRvKN", "--tables", where],
                       capture_output=True, check=True, timeout=300)
    hold = "9/4k4/9/9/8R/9/9/5n3/9/5K3_b_-_-_0_1"
    server, port = start_server(check_dir, "--tables", none_dir)
    base = f"http://127.0.0.1:{port}"
    try:
        status, answer = api(f"/api/probe?fen={hold}&rules=check")
        check("rule sets: check from its directory", status == 200 and answer.get("rule_set") == "check"
              and answer.get("rule_result") == "loss", answer)
        status, answer = api(f"/api/probe?fen={hold}&rules=none")
        check("rule sets: none from its directory", status == 200 and answer.get("rule_set") == "none"
              and answer.get("category") == "draw" and "rule_result" not in answer, answer)
        status, answer = api(f"/api/probe?fen={hold}&rules=chinese")
        check("rule sets: an unknown set refused", status == 400 and "none, check or asian" in answer["error"], answer)
        status, answer = api(f"/api/probe?fen={hold}")
        check("rule sets: the default (asian) not served", status == 404 and "served: check, none" in answer["error"]
              and answer.get("rule_set") == "asian" and answer.get("command") == "mktb gen --game xiangqi KRvKN", answer)
        status, answer = api("/api/probe?fen=8/8/8/4k3/8/8/8/R3K3_w_-_-_0_1&rules=none")
        check("rule sets: rules= is Xiangqi's", status == 400 and "Xiangqi's repetition rules" in answer["error"], answer)
        status, rules = api("/api/rules")
        check("rule sets: both offered", status == 200
              and [r["rules"] for r in rules.get("xiangqi", [])] == ["check", "none"], rules)
    finally:
        server.terminate()
        server.communicate(timeout=20)
    server, port = start_server(check_dir)
    base = f"http://127.0.0.1:{port}"
    try:
        status, answer = api(f"/api/probe?fen={hold}&rules=none")
        check("rule sets: none not served, with how to make it", status == 404
              and "no Xiangqi tables of the rules none are served (served: check" in answer["error"]
              and answer.get("command") == "mktb gen --game xiangqi --rules none KRvKN", answer)
        status, answer = api("/api/probe?fen=9/9/4k4/9/9/9/9/9/9/R2K5_w_-_-_0_1&rules=none")
        check("rule sets: an armless ending answers under every set", status == 200
              and answer.get("rule_set") == "none" and answer.get("category") == "win", answer)
    finally:
        server.terminate()
        server.communicate(timeout=20)

# 8. Arguments the server refuses.
for args, code, words in [
    (["--tables", "/nonexistent/mktb-tables"], 1, "is not a directory"),
    (["--tables", tables, "--port", "http"], 2, "--port takes 0 to 65535"),
    (["--tables", tables, "--bind", "192.0.2.1"], 1, "cannot listen"),
    (["--tables", tables, "--bind", ""], 2, "--bind takes an address"),
    (["--tables", tables, "--tables", tables], 2, "same rules"),
    (["--colour"], 2, "unknown option '--colour'"),
]:
    run = subprocess.run([mktb, "serve", *args], capture_output=True, text=True, timeout=30)
    check(f"serve {args}", run.returncode == code and words in run.stderr,
          f"exit {run.returncode}: {run.stderr}")

print(f"{len(failures)} failures" if failures else "all serve checks passed")
sys.exit(1 if failures else 0)
