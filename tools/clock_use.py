#!/usr/bin/env python3
"""Where each engine's clock went in a set of played games.

Reads PGN files written by fastchess (or match.py), whose move comments end
with the time a move took (`{+0.25/17 0.243s}`), and prints for every
engine: the mean time a move by move number (in steps of ten, from the
games' first move), and the clock left at the end of its games and at their
lowest point (medians). The clock is replayed from the TimeControl tag
(`10+0.1`: base and increment in seconds; `40/60`: 60 s for every 40 of
an engine's moves, its clock refilled after each 40th, for which the clock
left before each refill is printed too): an engine that ends its games
with much of its base left played faster than it had to, which a match
against engines that spend their clock shows. With `--lost ENGINE` it also
counts, for every game ENGINE lost, the move at which ENGINE's own score
first fell to -1.00 or below (or a mate against it): where the games were
lost, by the same rows.

  tools/clock_use.py data/matches/net7-ethereal-part1.pgn.xz
  tools/clock_use.py --step 5 --last 60 games.pgn
  tools/clock_use.py --lost cutoff data/matches/net7-sf2850-part*.pgn.xz

Needs Python 3 only. Files may be xz-compressed.
"""
import argparse
import lzma
import re
import statistics
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$', re.M)
COMMENT = re.compile(r"\{([^}]*)\}")
SECONDS = re.compile(r"(\d+(?:\.\d+)?)s\b")
# The mover's score at the start of a comment: +0.25, -1.40, +M5, -M3.
SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")


def split_games(text):
    """Yields (tags, movetext) for every game of a PGN text."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        if "[Event " not in chunk:
            continue
        head, _, body = chunk.partition("\n\n")
        yield dict(TAG.findall(head)), body


def control(tags):
    """(base, increment, moves per period or None) in seconds and moves
    from the TimeControl tag (`10+0.1`, `40/60`, `40/60+0.5`), or None."""
    m = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?", tags.get("TimeControl", ""))
    if not m or (m.group(1) is None and m.group(3) is None):
        return None
    moves = int(m.group(1)) if m.group(1) else None
    return float(m.group(2)), float(m.group(3) or 0), moves


def score_of(comment):
    """The mover's score in pawns (a mate as +-1000), or None."""
    m = SCORE.match(comment)
    if not m:
        return None
    value = 1000.0 if m.group(2) else float(m.group(3))
    return -value if m.group(1) == "-" else value


def replay(tags, body):
    """Yields (engine, move number, seconds, clock after the move, score,
    clock before a refill: the clock after an engine's last move of a
    period, or None)."""
    tc = control(tags)
    if tc is None:
        return
    base, inc, period = tc
    fen = tags.get("FEN", "").split()
    black = len(fen) > 1 and fen[1] == "b"
    number = int(fen[5]) if len(fen) > 5 and fen[5].isdigit() else 1
    engines = (tags.get("White", "white"), tags.get("Black", "black"))
    clock = {e: base for e in engines}
    played = {e: 0 for e in engines}
    side = 1 if black else 0
    for comment in COMMENT.findall(body):
        m = SECONDS.search(comment)
        if not m:
            continue  # a comment without a time (book move, adjudication)
        engine = engines[side]
        spent = float(m.group(1))
        clock[engine] += inc - spent
        played[engine] += 1
        refill = None
        if period and played[engine] % period == 0:
            refill = clock[engine]
        yield engine, number, spent, clock[engine], score_of(comment), refill
        if refill is not None:
            clock[engine] += base
        if side == 1:
            number += 1
        side ^= 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--step", type=int, default=10, help="moves per row (default 10)")
    ap.add_argument("--last", type=int, default=80, help="moves from this one on share a row (default 80)")
    ap.add_argument("--lost", metavar="ENGINE", help="where ENGINE's lost games turned (its score to -1)")
    args = ap.parse_args()
    if args.step < 1:
        sys.exit("--step must be at least 1")
    per_move = defaultdict(lambda: defaultdict(list))
    ends = defaultdict(list)
    lows = defaultdict(list)
    refills = defaultdict(list)
    games = 0
    turned = defaultdict(int)
    lost = 0
    for path in args.pgn:
        opener = lzma.open if path.endswith(".xz") else open
        try:
            with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError as e:
            sys.exit(f"cannot read {path}: {e}")
        for tags, body in split_games(text):
            last, low = {}, {}
            result = tags.get("Result")
            losing = args.lost is not None and (
                (result == "0-1" and tags.get("White") == args.lost)
                or (result == "1-0" and tags.get("Black") == args.lost)
            )
            lost += losing
            for engine, number, spent, clock, score, refill in replay(tags, body):
                if refill is not None:
                    refills[engine].append(refill)
                row = min(number // args.step * args.step, args.last)
                per_move[engine][row].append(spent)
                if losing and engine == args.lost and score is not None and score <= -1.0:
                    turned[row] += 1
                    losing = False  # counted once a game
                last[engine] = clock
                low[engine] = min(low.get(engine, clock), clock)
            for engine, clock in last.items():
                ends[engine].append(clock)
                lows[engine].append(low[engine])
            games += bool(last)
    if not games:
        sys.exit("no timed games found (move comments need times such as 0.243s)")
    print(f"{games} games")
    for engine in sorted(per_move):
        rows = per_move[engine]
        moves = sum(len(v) for v in rows.values())
        mean = sum(sum(v) for v in rows.values()) / moves
        print(
            f"{engine}: {moves} moves, mean {mean:.3f} s; clock left at the end "
            f"median {statistics.median(ends[engine]):.2f} s, lowest point "
            f"median {statistics.median(lows[engine]):.2f} s"
        )
        if refills[engine]:
            r = refills[engine]
            print(f"  clock left before a refill ({len(r)} periods): median {statistics.median(r):.2f} s, "
                  f"lowest {min(r):.2f} s")
        for start in sorted(rows):
            v = rows[start]
            span = f"{start:3d}+   " if start == args.last else f"{start:3d}-{start + args.step - 1:3d}"
            print(f"  moves {span}: {len(v):6d} moves, mean {sum(v) / len(v):.3f} s")
    if args.lost is not None:
        print(f"{args.lost} lost {lost} games; its score first fell to -1.00 at:")
        for start in sorted(turned):
            span = f"{start:3d}+   " if start == args.last else f"{start:3d}-{start + args.step - 1:3d}"
            print(f"  moves {span}: {turned[start]:4d} games")
        if lost > sum(turned.values()):
            print(f"  never: {lost - sum(turned.values()):4d} games")


if __name__ == "__main__":
    main()
