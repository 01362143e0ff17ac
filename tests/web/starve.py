#!/usr/bin/env python3
"""tests/web/starve.py PORT [ATTACK] - the two starvation attacks on `mktb serve` (issue: the first
hour, round two) and the latency of good requests beside them:

- keepalive: 66 clients, each re-sending a valid request every 4.5 s on one kept connection;
- pipeline: 70 clients that pipeline requests and never read the answers;
- drip: 600 clients, 30 from each of 20 loopback addresses (under the per-address cap), each
  sending its request a byte every 0.4 s, so that none arrives whole within the deadline.

Prints, per attack, the good requests' latencies (p50, p99, max) and exits 0; serve.py and
scripts/bench-serve call measure() and judge the figures themselves.
"""
import socket
import sys
import threading
import time

GOOD = "/api/probe?fen=k7/8/1K6/8/8/8/8/7R_w_-_-_0_1"


def request(path=GOOD):
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()


def good_request(port, timeout=30):
    """Seconds one fresh connection takes to get a whole answer (timeout: the limit)."""
    start = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(f"GET {GOOD} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            while s.recv(65536):
                pass
    except OSError:
        return timeout
    return time.monotonic() - start


def keepalive_client(port, stop):
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                while not stop.is_set():
                    s.sendall(request())
                    s.recv(65536)
                    stop.wait(4.5)
        except OSError:
            stop.wait(0.1)  # closed by the server: come back, as an attacker would


def pipeline_client(port, stop):
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                burst = request() * 200
                while not stop.is_set():
                    s.sendall(burst)  # never reads
        except OSError:
            stop.wait(0.1)


def drip_client(port, stop, address):
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10,
                                          source_address=(address, 0)) as s:
                for byte in request():
                    if stop.wait(0.4):
                        break
                    s.sendall(bytes([byte]))
        except OSError:
            stop.wait(0.1)


def measure(port, attack, goods=20):
    """The latencies of `goods` good requests while `attack` runs, sorted."""
    client, count = {"keepalive": (keepalive_client, 66), "pipeline": (pipeline_client, 70),
                     "drip": (drip_client, 600)}[attack]
    stop = threading.Event()
    args = [(port, stop) + ((f"127.0.0.{2 + i % 20}",) if attack == "drip" else ())
            for i in range(count)]
    threads = [threading.Thread(target=client, args=a, daemon=True) for a in args]
    for t in threads:
        t.start()
    time.sleep(2)  # the attackers hold their connections
    latencies = []
    for _ in range(goods):
        latencies.append(good_request(port))
        time.sleep(0.25)
    stop.set()
    return sorted(latencies)


def summary(latencies):
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    return f"p50 {p(0.5) * 1000:.0f} ms, p99 {p(0.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"


if __name__ == "__main__":
    port = int(sys.argv[1])
    for attack in sys.argv[2:] or ["keepalive", "pipeline"]:
        print(f"good requests beside the {attack} attack: {summary(measure(port, attack))}", flush=True)
