#!/usr/bin/env python3
"""Solved-versus-nodes curves of an EPD suite (bm/am), from one run per build.

A node-limited search is deterministic, and a search to N nodes is the first
N nodes of a longer one (same hash size, `ucinewgame` before each position).
So one run to the largest budget, recording every change of the PV's first
move with its node count, tells what the engine would play at every smaller
budget. A move that takes over inside an iteration is seen when Cutoff
reports it: at the iteration's end, or at its fail high once the search has
run a second. Checked on 0.1 (main 9b622d6, 2026-11-23): a 500,000-node run of `epd_uci.py` on 150
WAC positions solved exactly the positions this predicted from 1M- and
4M-node curves. Comparing builds over a range of budgets is less noisy than
one solved count at one budget, where a change shuffles a few positions
across the line either way.

usage:
  tools/epd_curve.py run ENGINE FILE NODES [Option=value ...] > X.jsonl
  tools/epd_curve.py sum X.jsonl [Y.jsonl ...]       solved at several budgets
  tools/epd_curve.py paired BASE.jsonl X.jsonl ...   per-position node ratios
`sum` takes `--budgets 250k,500k,1m`; by default seven from a quarter of the
cap to the cap.
`paired` gives the mean log2 of (nodes X needs / nodes BASE needs) over the
positions either needs more than 5,000 nodes for (unsolved counts as twice the
cap), with two standard errors: below zero, X solves faster.
Needs python-chess (pip install chess). One thread, Hash 16 by default.
"""
import json
import math
import sys

# The engine set-up, EPD reading and solving rule of the neighbouring tool.
from epd_uci import open_engine, positions, solves


def run(cmd, path, nodes, opts):
    import chess.engine

    eng = open_engine(cmd, opts)
    for board, ops in positions(path):
        hist = []
        # A new game object each time: the engine gets ucinewgame (fresh hash).
        with eng.analysis(board, chess.engine.Limit(nodes=nodes), game=object()) as an:
            for info in an:
                pv = info.get("pv")
                if pv and "depth" in info and "nodes" in info:
                    if not hist or hist[-1][1] != pv[0].uci():
                        hist.append((info["nodes"], pv[0].uci()))
        rec = {
            "id": ops.get("id"),
            "bm": [m.uci() for m in ops.get("bm", [])],
            "am": [m.uci() for m in ops.get("am", [])],
            "cap": nodes,
            "hist": hist,
        }
        print(json.dumps(rec), flush=True)
    eng.quit()


def load(path):
    return [json.loads(line) for line in open(path) if line.startswith("{")]


def right(rec, mv):
    return solves(rec["bm"], rec["am"], mv)


def move_at(rec, nodes):
    mv = None
    for n, m in rec["hist"]:
        if n <= nodes:
            mv = m
    return mv


def settle(rec):
    """Nodes from which the final choice stood, if right; else twice the cap."""
    h = rec["hist"]
    if not h or not right(rec, h[-1][1]):
        return 2 * rec["cap"]
    return max(h[-1][0], 1000)


def parse_nodes(text):
    text = text.lower()
    mult = {"k": 1_000, "m": 1_000_000}.get(text[-1], 1)
    return int(float(text.rstrip("km")) * mult)


def summarize(paths, budgets):
    runs = [(p, load(p)) for p in paths]
    cap = min(r["cap"] for _, recs in runs for r in recs)
    budgets = budgets or [cap * k // 8 for k in (2, 3, 4, 5, 6, 7, 8)]
    print("run".ljust(24) + "".join(f"{b // 1000:>7}k" for b in budgets) + "    mean")
    for path, recs in runs:
        counts = [sum(right(r, move_at(r, b)) for r in recs) for b in budgets]
        name = path.split("/")[-1][:23]
        print(
            name.ljust(24)
            + "".join(f"{c:8}" for c in counts)
            + f"  {sum(counts) / len(counts):6.1f}  ({len(recs)} positions)"
        )


def paired(base_path, paths):
    base = {r["id"]: r for r in load(base_path)}
    for path in paths:
        other = {r["id"]: r for r in load(path)}
        d = []
        for k, b in base.items():
            if k in other and max(settle(b), settle(other[k])) > 5000:
                d.append(math.log2(settle(other[k]) / settle(b)))
        if len(d) < 2:
            print(f"{path}: too few positions")
            continue
        m = sum(d) / len(d)
        sd = (sum((v - m) ** 2 for v in d) / (len(d) - 1)) ** 0.5
        print(
            f"{path.split('/')[-1]:24} n={len(d)}  mean log2 ratio {m:+.3f} "
            f"+- {2 * sd / len(d) ** 0.5:.3f}  (nodes to solve x{2**m:.2f})"
        )


def main():
    args = sys.argv[1:]
    if len(args) >= 4 and args[0] == "run":
        run(args[1], args[2], parse_nodes(args[3]), dict(a.split("=", 1) for a in args[4:]))
    elif len(args) >= 2 and args[0] == "sum":
        budgets = None
        if "--budgets" in args:
            i = args.index("--budgets")
            budgets = [parse_nodes(b) for b in args[i + 1].split(",")]
            args = args[:i] + args[i + 2 :]
        summarize(args[1:], budgets)
    elif len(args) >= 3 and args[0] == "paired":
        paired(args[1], args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
