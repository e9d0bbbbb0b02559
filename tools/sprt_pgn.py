#!/usr/bin/env python3
"""Pool the games of one or more match.py PGN files and report the SPRT.

An SPRT that is stopped before it reaches a bound (a session ends, the
cores are needed) can be continued: run the same two engines under the same
conditions with a new --seed and --pgn, then pool both files here. Games
pair by their Round tag within a file (rounds 2k-1 and 2k share an
opening), files may be xz-compressed, and the tally and the log-likelihood
ratio are match.py's own (PairingStats, sprt_llr), so the bounds mean the
same as in a single run.

  tools/sprt_pgn.py --engine net5 --elo0 0 --elo1 5 a.pgn b.pgn

SHARED (default ../shared) locates match.py.
"""
import argparse
import lzma
import math
import os
import re
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
SCORE = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def games(path):
    """Yields the tag dictionary of every game in a PGN file."""
    tags = {}
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            elif tags and line.strip() and not line.startswith("["):
                yield tags
                tags = {}
    if tags:
        yield tags


def pool(paths, engine, match):
    """match.py's own tally (its PairingStats) of `engine`'s games in all
    files; a pair is keyed by its file and Round so that files never mix."""
    stats = match.PairingStats(engine, None)
    for n, path in enumerate(paths):
        for tags in games(path):
            if tags.get("Result") not in SCORE:
                continue
            white, black = SCORE[tags["Result"]]
            if engine == tags.get("White"):
                score = white
            elif engine == tags.get("Black"):
                score = black
            else:
                sys.exit(f"{path}: round {tags.get('Round')} has no engine named {engine!r}")
            stats.add((n, (int(tags["Round"]) + 1) // 2), score, 0.0)
    return stats


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="the engine under test (its PGN name)")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=5.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--model", choices=["normalized", "logistic"], default="normalized")
    p.add_argument("pgn", nargs="+")
    args = p.parse_args()
    shared = os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
    sys.path.insert(0, os.path.join(shared, "tools"))
    import match  # noqa: E402 - located through SHARED at run time

    stats = pool(args.pgn, args.engine, match)
    penta = stats.penta
    if sum(penta) == 0:
        sys.exit("no complete game pairs")
    mean = sum(i / 4 * c for i, c in enumerate(penta)) / sum(penta)
    summary = stats.summary()
    llr = match.sprt_llr(penta, args.elo0, args.elo1, args.model)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    verdict = "H1 accepted" if llr >= upper else "H0 accepted" if llr <= lower else "continue"
    print(f"games {stats.n}: {stats.w} W {stats.d} D {stats.l} L; pairs {sum(penta)}, pentanomial {penta}")
    print(f"Elo {match.elo(mean):+.1f} +- {summary['penta']:.1f} (pentanomial)")
    print(f"LLR {llr:.2f} in ({lower:.2f}, {upper:.2f}) [{args.elo0:g}, {args.elo1:g}] {args.model}: {verdict}")


if __name__ == "__main__":
    main()
