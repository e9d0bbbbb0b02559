#!/usr/bin/env python3
"""Measures the time from writing `go` to reading the first `info` line.

Every trial sends `position startpos` (or --fen) and `go <LIMIT>`, times the
first `info` line after the `go`, then reads on to its `bestmove`. With
several engines, they take turns in blocks of --block trials, so that a
change in the machine's load falls on all of them alike.

    python3 tools/go_latency.py --engine OLD --engine NEW --trials 1000 \
        [--threads 2] [--go "depth 1"] [--block 50]

Prints one line per engine: trials, median, p99, max in ms.
"""
import argparse
import time

from uci_pipe import read_until, send, start, start_with_threads



def trial(proc, position, go):
    """Milliseconds from `go` to the first `info` line (not `info string`)."""
    send(proc, position)
    t0 = time.perf_counter()
    send(proc, f"go {go}")
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("engine exited")
        if line.startswith("info") and not line.startswith("info string"):
            ms = (time.perf_counter() - t0) * 1000
            break
        if line.startswith("bestmove"):
            raise RuntimeError("bestmove before any info line")
    read_until(proc, "bestmove")
    return ms


def summary(path, threads, ms):
    ms = sorted(ms)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
    return (f"{path}: threads {threads} trials {len(ms)}: "
            f"median {p(0.5):.3f} ms, p99 {p(0.99):.3f} ms, max {ms[-1]:.3f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True,
                    help="engine binary; repeat to compare several")
    ap.add_argument("--trials", type=int, default=1000, help="trials per engine")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--go", default="depth 1", help="what follows `go`")
    ap.add_argument("--fen", default=None, help="position (default: startpos)")
    ap.add_argument("--block", type=int, default=50, help="trials per turn")
    args = ap.parse_args()
    position = f"position fen {args.fen}" if args.fen else "position startpos"
    procs = [start_with_threads(e, args.threads) for e in args.engine]
    times = [[] for _ in procs]
    while any(len(t) < args.trials for t in times):
        for proc, t in zip(procs, times):
            for _ in range(min(args.block, args.trials - len(t))):
                t.append(trial(proc, position, args.go))
    for path, proc, t in zip(args.engine, procs, times):
        send(proc, "quit")
        proc.wait(timeout=5)
        print(summary(path, args.threads, t), flush=True)


if __name__ == "__main__":
    main()
