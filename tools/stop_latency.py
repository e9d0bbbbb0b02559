#!/usr/bin/env python3
"""Measures how fast the engine answers `stop` and `quit` during `go infinite`.

stop: time from writing `stop` to reading `bestmove`, in one engine process.
quit: time from writing `quit` to the process's exit, a new process per trial.
Each is sent at a random moment of a search (uniform in --min/--max seconds).

    python3 tools/stop_latency.py --engine target/release/cutoff --trials 1000 \
        [--threads 2] [--quit-trials 1000] [--seed 1]

Prints one line per measurement: trials, p50, p99, max in ms.
"""
import argparse
import random
import time

from uci_pipe import read_until, send, start, start_with_threads

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]



def summary(name, threads, ms):
    ms = sorted(ms)
    p = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
    return (f"{name}: trials {len(ms)} threads {threads}: "
            f"p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {ms[-1]:.2f} ms")


def stop_trials(args, rng):
    proc = start_with_threads(args.engine, args.threads)
    ms = []
    for _ in range(args.trials):
        send(proc, f"position fen {rng.choice(FENS)}")
        send(proc, "go infinite")
        time.sleep(rng.uniform(args.min, args.max))
        t0 = time.perf_counter()
        send(proc, "stop")
        read_until(proc, "bestmove")
        ms.append((time.perf_counter() - t0) * 1000)
    send(proc, "quit")
    proc.wait(timeout=5)
    return ms


def quit_trials(args, rng):
    ms = []
    for _ in range(args.quit_trials):
        proc = start_with_threads(args.engine, args.threads)
        send(proc, f"position fen {rng.choice(FENS)}")
        send(proc, "go infinite")
        time.sleep(rng.uniform(args.min, args.max))
        t0 = time.perf_counter()
        send(proc, "quit")
        proc.wait(timeout=5)
        ms.append((time.perf_counter() - t0) * 1000)
        if proc.returncode != 0:
            raise RuntimeError(f"exit status {proc.returncode} after quit")
    return ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--trials", type=int, default=200, help="stop trials")
    ap.add_argument("--quit-trials", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min", type=float, default=0.02, help="shortest search, s")
    ap.add_argument("--max", type=float, default=0.3, help="longest search, s")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.trials:
        print(summary("stop -> bestmove", args.threads, stop_trials(args, rng)), flush=True)
    if args.quit_trials:
        print(summary("quit -> exit", args.threads, quit_trials(args, rng)), flush=True)


if __name__ == "__main__":
    main()
