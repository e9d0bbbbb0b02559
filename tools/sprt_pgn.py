#!/usr/bin/env python3
"""Pool the games of one or more match PGN files and report the SPRT.

An SPRT that is stopped before it reaches a bound (the cores are needed, a
time limit) can be continued: run the same two engines under the same
conditions with a new seed and PGN file (tools/sprt.sh), then pool both
files here. The tally is pentanomial (game pairs that share an opening with
colours swapped) and the log-likelihood ratio is the generalized SPRT that
fastchess computes (and fishtest and OpenBench): the maximum-likelihood
pentanomial distributions with the expected score (model logistic) or the
normalized Elo (model normalized, the default) of ELO0 and ELO1, zero counts
taken as 0.001, bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha).
So the bounds mean the same as in a single run of tools/sprt.sh.

Pairs are found per file. In fastchess's PGNs both games of a pair carry
the same Round tag (and the same FEN): a pair is the two games of one Round,
FEN and pair of engines, in the order they appear. In the PGNs of match.py,
the runner used before fastchess (data/matches/, recognised by their
TerminationDetails tag), Round counts games and rounds 2k-1 and 2k are a
pair. Files may be xz-compressed. Games without a result (`*`) and a pair
that misses a game are counted as games but not as pairs.

  tools/sprt_pgn.py --engine new --elo0 0 --elo1 10 part1.pgn part2.pgn
  tools/sprt_pgn.py --engine net6 data/matches/net6-sprt-part*.pgn.xz

Needs Python 3 only.
"""
import argparse
import lzma
import math
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


class Tally:
    """Wins, draws, losses of one engine and its pentanomial: pairs in
    which it scored 0, 0.5, 1, 1.5 and 2 points."""

    def __init__(self):
        self.w = self.d = self.l = 0
        self.penta = [0] * 5
        self.open = {}  # pair key -> the engine's score in the pair's first game

    def add(self, key, score):
        self.w, self.d, self.l = self.w + (score == 1), self.d + (score == 0.5), self.l + (score == 0)
        if key in self.open:
            self.penta[int(2 * (self.open.pop(key) + score))] += 1
        else:
            self.open[key] = score

    @property
    def n(self):
        return self.w + self.d + self.l


def pool(paths, engine):
    """The tally of `engine`'s games in all files; files never mix."""
    tally = Tally()
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
            if "TerminationDetails" in tags:  # match.py: Round is the game's number
                key = (n, "game", (int(tags["Round"]) + 1) // 2)
            else:                              # fastchess: Round is the pair's number
                key = (n, tags.get("Round"), tags.get("FEN"), frozenset((tags.get("White"), tags.get("Black"))))
            tally.add(key, score)
    return tally


def elo(score):
    return -math.inf if score <= 0 else math.inf if score >= 1 else -400 * math.log10(1 / score - 1)


def pair_stats(penta):
    """Mean and variance of the pair score (0, 1/4, ..., 1) over the pairs."""
    pairs = sum(penta)
    mean = sum(i / 4 * c for i, c in enumerate(penta)) / pairs
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(penta)) / pairs
    return pairs, mean, var


def elo_interval(penta):
    """Logistic Elo of the pair score and the half-width of its 95% interval."""
    pairs, mean, var = pair_stats(penta)
    if pairs < 2 or var <= 0:
        return elo(mean), math.nan
    se = 1.959964 * math.sqrt(var / pairs)
    return elo(mean), (elo(min(mean + se, 1 - 1e-9)) - elo(max(mean - se, 1e-9))) / 2


def nelo_interval(penta):
    """Normalized Elo of the pairs (fastchess's nElo) and its 95% half-width."""
    pairs, mean, var = pair_stats(penta)
    if pairs < 2 or var <= 0:
        return math.nan, math.nan
    scale = 800 / math.log(10)
    return (mean - 0.5) / math.sqrt(2 * var) * scale, 1.959964 * scale / math.sqrt(2 * pairs)


def root(f, lo, hi):
    """x in (lo, hi) with f(x) = 0, f decreasing from positive to negative."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if not lo < mid < hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def closest(p, a):
    """The distribution q = p / (1 + x * a) with sum q * a = 0 (a changes sign)."""
    x = root(lambda x: sum(pi * ai / (1 + x * ai) for pi, ai in zip(p, a)), -1 / max(a), -1 / min(a))
    return [pi / (1 + x * ai) for pi, ai in zip(p, a)]


def llr(penta, elo0, elo1, model):
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0)."""
    counts = [c or 1e-3 for c in penta]
    n = sum(counts)
    p = [c / n for c in counts]
    x = [i / 4 for i in range(5)]

    def mle(target):
        if model == "logistic":      # the distribution with expected score `target`
            return closest(p, [xi - target for xi in x])
        q = [0.2] * 5                # normalized: with (mean - 1/2) / sd = target
        for _ in range(100):
            mu = sum(xi * qi for xi, qi in zip(x, q))
            sd = math.sqrt(sum(qi * (xi - mu) ** 2 for xi, qi in zip(x, q)))
            phi = [xi - 0.5 - 0.5 * target * sd * (1 + ((xi - mu) / sd) ** 2) for xi in x]
            new = closest(p, phi)
            if max(abs(u - v) for u, v in zip(q, new)) < 1e-9:
                return new
            q = new
        return q

    if model == "logistic":
        t0, t1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    else:                            # normalized Elo -> t-value of a game pair
        t0, t1 = (math.sqrt(2) * e / (800 / math.log(10)) for e in (elo0, elo1))
    p0, p1 = mle(t0), mle(t1)
    return n * sum(pi * (math.log(b) - math.log(a)) for pi, a, b in zip(p, p0, p1))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", required=True, help="the engine under test (its name in the PGN)")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=5.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--model", choices=["normalized", "logistic"], default="normalized")
    p.add_argument("pgn", nargs="+")
    args = p.parse_args()
    if not args.elo0 < args.elo1:
        sys.exit("--elo0 must be less than --elo1")

    tally = pool(args.pgn, args.engine)
    penta = tally.penta
    if sum(penta) == 0:
        sys.exit(f"{tally.n} games, no complete game pairs")
    e, e_err = elo_interval(penta)
    ne, ne_err = nelo_interval(penta)
    ratio = llr(penta, args.elo0, args.elo1, args.model)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    verdict = "H1 accepted" if ratio >= upper else "H0 accepted" if ratio <= lower else "continue"
    print(f"games {tally.n}: {tally.w} W {tally.d} D {tally.l} L; pairs {sum(penta)}, pentanomial {penta}")
    print(f"Elo {e:+.1f} +- {e_err:.1f}, nElo {ne:+.1f} +- {ne_err:.1f} (pentanomial)")
    print(f"LLR {ratio:.2f} in ({lower:.2f}, {upper:.2f}) [{args.elo0:g}, {args.elo1:g}] {args.model}: {verdict}")
    if verdict == "continue" and ratio != 0:
        # The ratio is the pair count times a per-pair term fixed by the
        # pentanomial frequencies, so if they hold it grows in proportion.
        bound = upper if ratio > 0 else lower
        more = tally.n * (bound / ratio - 1)
        print(f"at this estimate, about {more:,.0f} more games to the {'upper' if ratio > 0 else 'lower'} bound")


if __name__ == "__main__":
    main()
