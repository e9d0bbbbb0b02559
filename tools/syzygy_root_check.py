#!/usr/bin/env python3
"""Checks the score Cutoff reports for a root in the Syzygy tables against
python-chess's chess.syzygy: its sign must be the tablebase result's.

Usage: tools/syzygy_root_check.py BINARY TABLES [--positions 200]
       [--seed 5] [--depths 2,10] [--no-rule50]

Draws POSITIONS random legal 3-4-piece positions (no castling, not over,
material from the tables in TABLES, every move's result in them too; the
side to move may be in check) and
has Cutoff (SyzygyPath=TABLES, one thread) analyse each at every depth of
DEPTHS. A win must score > 0, a draw 0 and a loss < 0 (a mate counts by
its sign). With the fifty-move rule (Cutoff's default, Syzygy50MoveRule)
cursed wins and blessed losses are draws; with --no-rule50 they are wins
and losses, and the option is set to false. Prints the agreement per depth
and every disagreement; exits 1 on any.
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.syzygy

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from syzygy_check import materials, random_position  # noqa: E402


def in_tables(tb, b):
    """True if the DTZ of the position and of every position after a move
    can be read (a root probe reads them all; a partial set may lack the
    table a capture or promotion leads to)."""
    try:
        tb.probe_dtz(b)
        for m in b.legal_moves:
            b.push(m)
            try:
                tb.probe_dtz(b)
            finally:
                b.pop()
    except chess.syzygy.MissingTableError:
        return False
    return True


def positions(rng, tb, names, count):
    """`count` random positions in the tables whose game is not over, with
    their WDL."""
    out = []
    while len(out) < count:
        b = random_position(rng, rng.choice(names))
        if b is not None and not b.is_game_over() and in_tables(tb, b):
            out.append((b, tb.probe_wdl(b)))
    return out


def expected_sign(wdl, rule50):
    """The sign a score must have for a Syzygy WDL value (-2..2)."""
    if rule50 and abs(wdl) == 1:
        return 0
    return (wdl > 0) - (wdl < 0)


def sign_of(score):
    """The sign of a python-chess score from the side to move; a mate counts
    by its sign."""
    v = score.relative.score(mate_score=100_000)
    return (v > 0) - (v < 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tables")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--depths", default="2,10")
    ap.add_argument("--no-rule50", action="store_true")
    a = ap.parse_args()
    rule50 = not a.no_rule50
    depths = [int(d) for d in a.depths.split(",")]
    rng = random.Random(a.seed)
    names = materials(a.tables)
    with chess.syzygy.open_tablebase(a.tables) as tb:
        boards = positions(rng, tb, names, a.positions)
    agree = {d: 0 for d in depths}
    with chess.engine.SimpleEngine.popen_uci(a.binary) as engine:
        engine.configure({"SyzygyPath": a.tables, "Threads": 1,
                          "Syzygy50MoveRule": rule50})
        for i, (b, wdl) in enumerate(boards):
            want = expected_sign(wdl, rule50)
            for d in depths:
                # A new game each time: no table entries carried over.
                info = engine.analyse(b, chess.engine.Limit(depth=d), game=(i, d))
                if sign_of(info["score"]) == want:
                    agree[d] += 1
                else:
                    print(f"disagree depth {d}: {b.fen()} wdl {wdl} "
                          f"cutoff {info['score'].relative}")
    summary = " ".join(f"depth{d} {agree[d]}/{len(boards)}" for d in depths)
    print(f"positions {len(boards)} tables {len(names)} rule50 {rule50} seed {a.seed} {summary}")
    sys.exit(0 if all(agree[d] == len(boards) for d in depths) else 1)


if __name__ == "__main__":
    main()
