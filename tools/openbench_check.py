#!/usr/bin/env python3
"""Checks Cutoff against OpenBench's own client code (not copied here: point
--client at the Client/ folder of an OpenBench checkout).

With OpenBench's functions, in a scratch copy of this repository's HEAD:
  1. builds with the command OpenBench builds with (utils.makefile_command:
     `make -j EXE=<name>`, plus `EVALFILE=<net>` with --net);
  2. runs its bench (bench.run_benchmark: `./<exe> bench`, its parser, the
     determinism check) against the latest `Bench:` of the commit log (or
     --expect; with --net the bench is only printed);
  3. builds an opening book the way its datagen workloads do
     (genfens.create_genfens_opening_book: `./<exe> "genfens N seed S book
     None" quit` on several processes) and checks the count and that every
     opening is a legal, unfinished position (python-chess).

With --spsa it builds as an engine configured with "build": {"path": "spsa"}
(OpenBench's command, run in the spsa/ folder: the tunable build), runs the
bench (the same node count as the normal build) and checks that the engine's
answer to `uci` lists every tunable of `cutoff spsa-params` as a spin option
with its default, min and max; genfens is not run.

Needs: python-chess, requests (OpenBench's utils imports it), make, cargo.
Example:
  python3 tools/openbench_check.py --client ../OpenBench/Client
  python3 tools/openbench_check.py --client ../OpenBench/Client --net some.nnue
  python3 tools/openbench_check.py --client ../OpenBench/Client --spsa
Exit status 0 when every check passes.
"""

import argparse
import io
import os
import re
import subprocess
import sys
import tempfile


def latest_bench(repo):
    log = subprocess.run(["git", "-C", repo, "log", "--format=%B"],
                         capture_output=True, text=True, check=True).stdout
    found = re.search(r"Bench: (\d+)", log)
    return int(found.group(1)) if found else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--client", required=True, help="OpenBench's Client/ folder")
    ap.add_argument("--net", help="a network file to embed (EVALFILE)")
    ap.add_argument("--expect", type=int, help="bench node count (default: the log's)")
    ap.add_argument("--openings", type=int, default=16, help="genfens openings per process")
    ap.add_argument("--spsa", action="store_true",
                    help='build as an engine with "build": {"path": "spsa"} and check its tunables')
    args = ap.parse_args()

    sys.path.insert(0, os.path.abspath(args.client))
    import bench, genfens, utils  # OpenBench's modules
    import chess

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    expect = None if args.net else (args.expect or latest_bench(repo))
    with tempfile.TemporaryDirectory() as scratch:
        src = os.path.join(scratch, "cutoff")
        subprocess.run(["git", "clone", "-q", repo, src], check=True)
        name = utils.engine_binary_name("Cutoff", "0" * 40, args.net)
        make_path = os.path.join(src, "spsa" if args.spsa else "")
        command = utils.makefile_command(args.net, make_path, name, None)
        print("build:", " ".join(command), "in", make_path)
        built = subprocess.run(command, cwd=make_path)
        if built.returncode != 0 or not utils.check_for_engine_binary(os.path.join(make_path, name)):
            print("FAIL: the build did not make", name)
            return 1

        os.chdir(make_path)
        nps, nodes = bench.run_benchmark(name, threads=2, sets=2, expected=expect)
        print(f"bench: {nodes} nodes, {nps} nps (expected {expect or 'not checked'})")
        if args.spsa:
            return check_tunables(os.path.join(make_path, name))

        book = io.StringIO()
        threads = 2
        genfens.create_genfens_opening_book({
            "N": args.openings, "threads": threads, "engine": name,
            "seeds": [101 + i for i in range(threads)], "book": "None",
            "extra": "", "output": book,
        })
        lines = book.getvalue().splitlines()
        bad = [l for l in lines if not usable(chess, l)]
        print(f"\ngenfens: {len(lines)} openings, {len(set(lines))} distinct, {len(bad)} unusable")
        if len(lines) != args.openings * threads or bad:
            print("FAIL:", bad[:3])
            return 1
    print("ok: OpenBench builds, benches and asks Cutoff for openings as it expects")
    return 0


def check_tunables(exe):
    """Every line of `spsa-params` is a spin option of the engine's `uci`."""
    params = subprocess.run([exe, "spsa-params"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    uci = subprocess.run([exe], input="uci\nquit\n", capture_output=True, text=True,
                         check=True).stdout.splitlines()
    missing = []
    for line in params:
        name, _, value, low, high = [f.strip() for f in line.split(",")][:5]
        want = f"option name {name} type spin default {value} min {low} max {high}"
        if want not in uci:
            missing.append(want)
    print(f"\ntunables: {len(params)} in spsa-params, {len(params) - len(missing)} listed by uci")
    if not params or missing:
        print("FAIL: not listed:", missing[:3])
        return 1
    print("ok: OpenBench builds the tunable engine from the spsa folder")
    return 0


def usable(chess, epd):
    """A legal position with moves to play (OpenBench writes EPD lines)."""
    try:
        board, _ = chess.Board.from_epd(epd)
    except ValueError:
        return False
    return board.is_valid() and not board.is_game_over()


if __name__ == "__main__":
    sys.exit(main())
