#!/usr/bin/env python3
"""Prints the engine's idle resident memory after each (Hash, Threads) change.

    python3 tools/idle_memory.py --engine target/release/cutoff

For each pair of the sequence: `setoption` Hash and Threads, `isready`, a
`go nodes 200000` from the start position, `isready`, then VmRSS and Threads
from /proc/PID/status. Shows whether memory freed by a smaller Hash or fewer
threads goes back to the system (docs/reliability.md, section 4).
"""
import argparse

from uci_pipe import proc_status, read_until, send, start

SEQUENCE = [(1, 1), (16, 1), (64, 1), (1, 1), (1, 2), (1, 4), (1, 1), (16, 1), (256, 1), (16, 1), (1, 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    args = ap.parse_args()
    proc = start(args.engine)
    send(proc, "isready")
    read_until(proc, "readyok")
    _, rss = proc_status(proc.pid)
    print(f"fresh (default Hash): VmRSS {rss / 1024:.1f} MB")
    for hash_mb, threads in SEQUENCE:
        send(proc, f"setoption name Hash value {hash_mb}")
        send(proc, f"setoption name Threads value {threads}")
        send(proc, "isready")
        read_until(proc, "readyok")
        send(proc, "position startpos moves e2e4")
        send(proc, "go nodes 200000")
        read_until(proc, "bestmove")
        send(proc, "isready")
        read_until(proc, "readyok")
        _, rss = proc_status(proc.pid)
        print(f"Hash {hash_mb} MB, Threads {threads}: VmRSS {rss / 1024:.1f} MB "
              f"({(rss - hash_mb * 1024) / 1024:.1f} MB beyond Hash)")
    send(proc, "quit")
    proc.wait(timeout=10)


if __name__ == "__main__":
    main()
