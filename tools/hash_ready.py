#!/usr/bin/env python3
"""Times how soon a large Hash is ready: from writing `setoption name Hash
value H` and `isready` to reading `readyok` (the table allocated and every
page touched), then from `ucinewgame` and `isready` to `readyok` (the table
cleared). Each trial is a fresh engine with `Threads` set first; it quits
and is waited for before the next one, so that only one table is in memory.
With several engines, they take turns trial by trial.

    python3 tools/hash_ready.py --engine OLD --engine NEW --hash 16384 \
        --threads 2 --trials 5

Prints every trial, then one line per engine: the medians in ms.
"""
import argparse
import statistics
import time

from uci_pipe import read_until, send, start_with_threads


def trial(engine, threads, hash_mb):
    """(ms to readyok after Hash, ms to readyok after ucinewgame)."""
    proc = start_with_threads(engine, threads)
    t0 = time.perf_counter()
    send(proc, f"setoption name Hash value {hash_mb}")
    send(proc, "isready")
    read_until(proc, "readyok")
    allocate = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    send(proc, "ucinewgame")
    send(proc, "isready")
    read_until(proc, "readyok")
    clear = (time.perf_counter() - t0) * 1000
    send(proc, "quit")
    proc.wait()
    return allocate, clear


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", action="append", required=True,
                    help="engine binary; repeat to compare several")
    ap.add_argument("--hash", type=int, default=16384, help="Hash in MB")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--trials", type=int, default=5, help="trials per engine")
    args = ap.parse_args()
    results = {e: [] for e in args.engine}
    for i in range(args.trials):
        for engine in args.engine:
            allocate, clear = trial(engine, args.threads, args.hash)
            results[engine].append((allocate, clear))
            print(f"trial {i + 1} {engine}: Hash {args.hash} -> readyok "
                  f"{allocate:.0f} ms, ucinewgame -> readyok {clear:.0f} ms",
                  flush=True)
    for engine, r in results.items():
        print(f"{engine}: threads {args.threads} hash {args.hash} trials {len(r)}: "
              f"Hash -> readyok median {statistics.median(a for a, _ in r):.0f} ms, "
              f"ucinewgame -> readyok median {statistics.median(c for _, c in r):.0f} ms")


if __name__ == "__main__":
    main()
