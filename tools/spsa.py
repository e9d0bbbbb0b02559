#!/usr/bin/env python3
"""A local SPSA tuner with OpenBench's algorithm, on fastchess games.

Parameters come in OpenBench's SPSA input format, one per line:
    name, int|float, value, min, max, c_end, r_end
(`cutoff spsa-params` prints Cutoff's; the engine playing must be a
`--features spsa` build, where each parameter is a UCI option). As in
OpenBench: c = c_end * N^gamma and a = r_end * c_end^2 * (A + N)^alpha, with
N iterations and A = a_ratio * N; at iteration k, c_k = max(c / k^gamma, 0.5
for integers) and r_k = a / (A + k)^alpha / c_k^2; each parameter flips +-1
at random, the engine with value + c_k * flip ("dev") plays `--pairs` game
pairs against the one with value - c_k * flip ("base", integers rounded at
random, both clipped to [min, max]), and every value moves by
r_k * c_k * (W - L) * flip, W and L counted for dev.

The run lives in --state DIR: state.json (values, iteration, checkpointed
after every iteration, so a stopped run resumes where it was when started
again with the same command), log.csv (one row per iteration: games, W D L,
every value) and paths.svg (each parameter's path, scaled to its range).

    python3 tools/spsa.py --engine target/release/cutoff --params params.txt \\
        --state spsa-run --iterations 500 --pairs 4 --tc 5+0.05

Each iteration is one fastchess run (on PATH, or --fastchess / FASTCHESS=)
of --pairs rounds of two games under the conditions of
tools/match_conditions.sh: Threads 1, Hash 16, both colours of each opening
(tools/openings/8moves_v3-2000.epd unless --openings names another EPD or
PGN file) in a random order seeded by --seed and the iteration (a resumed
run plays the same openings), resignation at 1000 cp for 4 moves on both
sides, 50 ms time margin. W, D and L are counted from the run's PGN.

--fake TARGETS plays no games: W - L comes from a noisy objective peaked at
the given values (name=value,...), to check the tuner itself.
"""

import argparse
import csv
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zlib


def parse_params(text):
    params = []
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, kind, value, lo, hi, c_end, r_end = [f.strip() for f in line.split(",")]
        params.append({"name": name, "float": kind == "float", "value": float(value),
                       "min": float(lo), "max": float(hi),
                       "c_end": float(c_end), "r_end": float(r_end)})
    if not params:
        raise SystemExit("error: no parameters")
    return params


def constants(p, n, alpha, gamma, a_ratio):
    c = p["c_end"] * n ** gamma
    a = p["r_end"] * p["c_end"] ** 2 * (a_ratio * n + n) ** alpha
    return c, a


def perturb(params, state, k, args, rng):
    """The dev and base values of iteration k, with the flips, c and r."""
    out = []
    for p in params:
        c, a = constants(p, args.iterations, args.alpha, args.gamma, args.a_ratio)
        ck = max(c / k ** args.gamma, 0.0 if p["float"] else 0.5)
        rk = a / (args.a_ratio * args.iterations + k) ** args.alpha / ck ** 2
        flip = rng.choice((-1, 1))
        value = state["values"][p["name"]]
        dev, base = value + flip * ck, value - flip * ck
        if not p["float"]:
            u = rng.random()
            dev, base = math.floor(dev + u), math.floor(base + u)
        clip = lambda v: min(max(v, p["min"]), p["max"])
        out.append({"name": p["name"], "dev": clip(dev), "base": clip(base),
                    "flip": flip, "c": ck, "r": rk})
    return out


def play(args, trial, k):
    """(W, D, L) of dev against base over args.pairs game pairs."""
    if args.fake:
        return fake_result(args, trial)
    def engine(side):
        opts = [f"option.{t['name']}={fmt(t[side])}" for t in trial]
        return ["-engine", f"name={side}", f"cmd={args.engine}"] + opts
    limit = f"tc={args.tc}" if args.tc else f"nodes={args.nodes}"
    fmt_book = "pgn" if args.openings.endswith(".pgn") else "epd"
    with tempfile.TemporaryDirectory(prefix="spsa-") as tmp:
        pgn = os.path.join(tmp, "games.pgn")
        # the conditions of tools/match_conditions.sh
        cmd = [args.fastchess] + engine("dev") + engine("base") + [
            "-each", "option.Hash=16", "option.Threads=1", "timemargin=50", limit,
            "-rounds", str(args.pairs), "-repeat", "-concurrency", str(args.concurrency),
            "-openings", f"file={args.openings}", f"format={fmt_book}", "order=random",
            "-srand", str(args.seed * 1_000_003 + k),
            "-resign", "movecount=4", "score=1000", "twosided=true",
            "-pgnout", f"file={pgn}", "-config", f"outname={os.path.join(tmp, 'state.json')}"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        w = d = l = 0
        if os.path.exists(pgn):
            with open(pgn, encoding="utf-8", errors="replace") as f:
                white = None
                for line in f:
                    if m := re.match(r'\[White "(.*)"\]', line):
                        white = m.group(1)
                    elif m := re.match(r'\[Result "(.*)"\]', line):
                        result = m.group(1)
                        if result == "1/2-1/2":
                            d += 1
                        elif result in ("1-0", "0-1"):
                            if (result == "1-0") == (white == "dev"):
                                w += 1
                            else:
                                l += 1
    if out.returncode != 0 or w + d + l != 2 * args.pairs:
        raise SystemExit(f"error: fastchess failed ({w + d + l} of {2 * args.pairs} games):\n"
                         f"{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return w, d, l


def fake_result(args, trial):
    """A noisy stand-in for games: dev wins more often the closer it is."""
    rng = random.Random(zlib.crc32(json.dumps(trial, sort_keys=True).encode()) ^ args.seed)
    w = d = l = 0
    for _ in range(2 * args.pairs):
        edge = sum((abs(t["base"] - args.fake[t["name"]]) - abs(t["dev"] - args.fake[t["name"]]))
                   for t in trial)
        x = rng.gauss(0.1 * edge, 1.0)
        w, d, l = (w + 1, d, l) if x > 0.5 else (w, d, l + 1) if x < -0.5 else (w, d + 1, l)
    return w, d, l


def fmt(v):
    return str(int(v)) if float(v).is_integer() else f"{v:.4f}"


def save(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
    os.replace(tmp, path)  # a stop never leaves half a checkpoint


def paths(log_path, params):
    """The values per iteration, the defaults first, read back from log.csv."""
    with open(log_path) as f:
        rows = list(csv.DictReader(f))
    return [{p["name"]: p["value"] for p in params}] + [{p["name"]: float(r[p["name"]]) for p in params} for r in rows]


def draw(path, params, rows):
    """Each parameter's value per iteration, scaled to its [min, max]."""
    w, h, pad = 720, 360, 40
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
    n = max(1, len(rows) - 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 20 * len(params)}">',
             f'<rect x="{pad}" y="{pad}" width="{w - 2 * pad}" height="{h - 2 * pad}" fill="none" stroke="#999"/>',
             f'<text x="{pad}" y="{pad - 10}" font-size="12">SPSA: each parameter between its min (bottom) and max (top), iterations 0..{n}</text>']
    for i, p in enumerate(params):
        span = (p["max"] - p["min"]) or 1.0
        pts = " ".join(f"{pad + (w - 2 * pad) * j / n:.1f},{h - pad - (h - 2 * pad) * (r[p['name']] - p['min']) / span:.1f}"
                       for j, r in enumerate(rows))
        colour = colours[i % len(colours)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{pts}"/>')
        last = rows[-1][p["name"]]
        parts.append(f'<text x="{pad}" y="{h + 15 + 20 * i}" font-size="12" fill="{colour}">'
                     f'{p["name"]}: {fmt(p["value"])} -> {last:.2f} (range {fmt(p["min"])}..{fmt(p["max"])})</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--params", required=True, help="OpenBench SPSA input file")
    ap.add_argument("--engine", help="the engine built with its parameters as UCI options")
    ap.add_argument("--state", required=True, help="folder of the run (checkpoint, log, SVG)")
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("--pairs", type=int, default=4, help="game pairs per iteration")
    ap.add_argument("--alpha", type=float, default=0.602)
    ap.add_argument("--gamma", type=float, default=0.101)
    ap.add_argument("--a-ratio", type=float, default=0.1, help="A as a share of the iterations")
    ap.add_argument("--tc", help="time control, e.g. 5+0.05")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of --tc")
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "openings", "8moves_v3-2000.epd"),
                    help="EPD or PGN openings (default: the suite in tools/openings)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--fastchess", default=os.environ.get("FASTCHESS") or shutil.which("fastchess"),
                    help="the fastchess binary (default: FASTCHESS, or fastchess on PATH)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fake", help="name=value,... : a synthetic objective instead of games")
    args = ap.parse_args()
    if args.fake:
        args.fake = {k: float(v) for k, v in (kv.split("=") for kv in args.fake.split(","))}
    elif not args.engine or not (args.tc or args.nodes):
        raise SystemExit("error: --engine and --tc or --nodes are needed (or --fake)")
    elif not args.fastchess:
        raise SystemExit("error: fastchess not found: put it on PATH, or give --fastchess or FASTCHESS=")

    with open(args.params) as f:
        params = parse_params(f.read())
    os.makedirs(args.state, exist_ok=True)
    state_path = os.path.join(args.state, "state.json")
    if os.path.exists(state_path):
        with open(state_path) as f:
            state = json.load(f)
        print(f"spsa: resuming after iteration {state['iteration']}")
    else:
        state = {"iteration": 0, "values": {p["name"]: p["value"] for p in params}}
    log_path = os.path.join(args.state, "log.csv")
    if not os.path.exists(log_path):
        with open(log_path, "w") as f:
            f.write("iteration,games,w,d,l," + ",".join(p["name"] for p in params) + "\n")

    while state["iteration"] < args.iterations:
        k = state["iteration"] + 1
        rng = random.Random(args.seed * 1_000_003 + k)  # a resumed run draws the same
        trial = perturb(params, state, k, args, rng)
        w, d, l = play(args, trial, k)
        for t, p in zip(trial, params):
            v = state["values"][p["name"]] + t["r"] * t["c"] * (w - l) * t["flip"]
            state["values"][p["name"]] = min(max(v, p["min"]), p["max"])
        state["iteration"] = k
        save(state_path, state)
        with open(log_path, "a") as f:
            f.write(f"{k},{w + d + l},{w},{d},{l}," +
                    ",".join(f"{state['values'][p['name']]:.4f}" for p in params) + "\n")
        draw(os.path.join(args.state, "paths.svg"), params, paths(log_path, params))
        print(f"spsa: iteration {k}/{args.iterations}: +{w} ={d} -{l}; " +
              ", ".join(f"{p['name']} {state['values'][p['name']]:.2f}" for p in params), flush=True)
    print("spsa: done; values:", json.dumps(state["values"]))


if __name__ == "__main__":
    main()
