#!/usr/bin/env python3
"""Nodes per second of one engine with 1 and with N threads.

For each position, `go movetime MS` with Threads=1 and Threads=N in turn
(ROUNDS times, alternating, each search after `ucinewgame` with a fresh
table), reading the `nps` of the last `info` line before `bestmove`. Prints
each search, then the medians and their ratio. Run it on an otherwise idle
machine: every thread needs a core of its own.

    tools/nps_scaling.py ENGINE [--threads 2] [--movetime 4000] [--rounds 2]
"""
import argparse
import re
import statistics
import subprocess

POSITIONS = [
    "startpos",
    # Kiwipete: a middlegame full of tactics.
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    # A quiet middlegame (Ruy Lopez, closed).
    "fen r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N1P/PP1P1PP1/RNBQR1K1 b - - 0 9",
    # An endgame with rooks and pawns.
    "fen 8/5pk1/6p1/R6p/5P2/6P1/r5KP/8 w - - 0 40",
]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, word):
        """Lines up to the first that starts with `word`; that line last."""
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(word):
                return lines
        raise SystemExit(f"engine ended before '{word}'")

    def nps(self, threads, position, movetime):
        self.send(f"setoption name Threads value {threads}")
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position {position}")
        self.send(f"go movetime {movetime}")
        found = [re.search(r" nps (\d+)", l) for l in self.wait("bestmove")]
        values = [int(m.group(1)) for m in found if m]
        if not values:
            raise SystemExit("no info line with nps")
        return values[-1]

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--movetime", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    a = ap.parse_args()
    e = Engine(a.engine)
    e.send(f"setoption name Hash value {a.hash}")
    got = {1: [], a.threads: []}
    for r in range(a.rounds):
        for i, pos in enumerate(POSITIONS):
            order = (1, a.threads) if (r + i) % 2 == 0 else (a.threads, 1)
            for t in order:
                v = e.nps(t, pos, a.movetime)
                got[t].append(v)
                print(f"round {r + 1} position {i + 1} threads {t}: {v} nps", flush=True)
    e.quit()
    one, many = statistics.median(got[1]), statistics.median(got[a.threads])
    print(f"median nps: 1 thread {one:.0f}, {a.threads} threads {many:.0f}, ratio {many / one:.2f}")


if __name__ == "__main__":
    main()
