#!/usr/bin/env python3
"""Measures how fast the engine answers `stop` during `go infinite`: time
from writing `stop` to reading `bestmove`, over many trials.

    python3 tools/stop_latency.py --engine target/release/cutoff --trials 200 [--threads 2]
"""
import argparse
import random
import subprocess
import time

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


def read_until(proc, prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("engine exited")
        if line.startswith(prefix):
            return line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    proc = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(cmd):
        proc.stdin.write(cmd + "\n")
        proc.stdin.flush()

    send("uci")
    read_until(proc, "uciok")
    send(f"setoption name Threads value {args.threads}")
    send("isready")
    read_until(proc, "readyok")
    latencies = []
    for _ in range(args.trials):
        send(f"position fen {rng.choice(FENS)}")
        send("go infinite")
        time.sleep(rng.uniform(0.02, 0.3))
        start = time.perf_counter()
        send("stop")
        read_until(proc, "bestmove")
        latencies.append((time.perf_counter() - start) * 1000)
    send("quit")
    proc.wait(timeout=5)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"trials {len(latencies)} threads {args.threads}: "
          f"median {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {latencies[-1]:.2f} ms")


if __name__ == "__main__":
    main()
