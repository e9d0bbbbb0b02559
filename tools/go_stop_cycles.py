#!/usr/bin/env python3
"""Checks that many `go`/`stop` cycles leave no threads or memory behind, and
that changing Hash and Threads between searches is safe.

    python3 tools/go_stop_cycles.py --engine target/release/cutoff --cycles 10000

Each cycle: `position`, `go infinite` (or a short `go depth`/`go nodes`/
`go ponder`), a random pause of 0-3 ms, `stop`, wait for `bestmove`. Every
--change cycles Hash and Threads are set to the next pair of a rotation, and
`isready` must answer. Threads and VmRSS are read from /proc/PID/status once
the engine is idle. The first rotation is a warm-up (the allocator keeps some
freed memory for reuse); after it, each setting's resident memory is compared
with its own first sample after the warm-up: the check fails if any grew by
more than --rss-slack-kb, or if the idle process ever has other threads than
the input thread and one per search thread (the pool's threads stay parked
between searches). Every sample must also stay within Hash + --overhead-mb (30 MB
by default), warm-up included. Exit status 1 on failure.
"""
import argparse
import random
import sys
import time

from uci_pipe import proc_status, read_until, send, start

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
]
GOS = ["go infinite", "go infinite", "go depth 4", "go nodes 2000", "go ponder"]
# (Hash MB, Threads), in rotation.
SETTINGS = [(16, 1), (1, 2), (64, 4), (8, 2), (32, 1), (16, 3), (2, 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--cycles", type=int, default=10000)
    ap.add_argument("--change", type=int, default=500, help="cycles per setting")
    ap.add_argument("--rss-slack-kb", type=int, default=4096)
    ap.add_argument("--overhead-mb", type=int, default=30, help="allowed VmRSS above Hash")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    proc = start(args.engine)
    blocks = max(2 * len(SETTINGS), args.cycles // args.change)
    samples = []
    started = time.time()
    for block in range(blocks):
        hash_mb, threads = SETTINGS[block % len(SETTINGS)]
        send(proc, f"setoption name Hash value {hash_mb}")
        send(proc, f"setoption name Threads value {threads}")
        send(proc, "isready")
        read_until(proc, "readyok")
        for _ in range(args.change):
            send(proc, f"position fen {rng.choice(FENS)}")
            send(proc, rng.choice(GOS))
            time.sleep(rng.uniform(0, 0.003))
            send(proc, "stop")
            read_until(proc, "bestmove")
        send(proc, "isready")
        read_until(proc, "readyok")
        t, rss = proc_status(proc.pid)
        samples.append((block, hash_mb, threads, t, rss))
        print(f"block {block}: {(block + 1) * args.change} cycles, Hash {hash_mb} "
              f"Threads {threads}: process threads {t}, VmRSS {rss} kB", flush=True)
    send(proc, "quit")
    proc.wait(timeout=10)
    # Threads beside the pool's: the input thread alone.
    idle_threads = {s[3] - s[2] for s in samples}
    growth = {}
    for setting in SETTINGS:
        rss = [s[4] for s in samples[len(SETTINGS):] if (s[1], s[2]) == setting]
        if rss:
            growth[setting] = rss[-1] - rss[0]
    worst = max(growth.values())
    # Resident memory beyond the table, per sample; the largest of them.
    over = max((s[4] - s[1] * 1024, s[1], s[2]) for s in samples)
    print(f"{blocks * args.change} cycles in {time.time() - started:.0f} s; "
          f"idle threads beside the pool's {sorted(idle_threads)}; VmRSS growth after warm-up per "
          f"(Hash, Threads): " + ", ".join(f"{k}: {v:+d} kB" for k, v in growth.items())
          + f"; peak VmRSS {max(s[4] for s in samples)} kB; largest VmRSS beyond Hash "
          f"{over[0]} kB (Hash {over[1]}, Threads {over[2]}); exit status {proc.returncode}")
    ok = (len(idle_threads) == 1 and worst <= args.rss_slack_kb and proc.returncode == 0
          and over[0] <= args.overhead_mb * 1024)
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
