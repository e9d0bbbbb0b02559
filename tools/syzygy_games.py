#!/usr/bin/env python3
"""Self-play from tablebase positions: wins must be converted within the
fifty-move rule, and drawn positions must not be lost.

Usage: tools/syzygy_games.py BINARY TABLES [--games 20] [--movetime 50] [--seed 7]

Draws GAMES random won positions (the side to move wins) and GAMES random
drawn ones from the 3-4-piece material in TABLES (python-chess's
chess.syzygy decides which), then lets Cutoff (SyzygyPath=TABLES) play both
sides at `go movetime MOVETIME`. A won game passes if the winner mates
before the fifty-move rule or a repetition; a drawn one if nobody is mated.
Exits 1 on any failure.
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.syzygy

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from syzygy_check import materials, random_position  # noqa: E402


def pick(rng, tb, names, want, count):
    """`count` random positions whose WDL is in `want`, not over yet."""
    out = []
    while len(out) < count:
        b = random_position(rng, rng.choice(names))
        if b is None or b.is_game_over() or len(b.piece_map()) < 4:
            continue
        if tb.probe_wdl(b) in want:
            out.append(b)
    return out


def play(engine, board, movetime):
    """Plays to the end; returns the outcome (claiming fifty moves and threefold)."""
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome
        result = engine.play(board, chess.engine.Limit(time=movetime / 1000))
        board.push(result.move)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tables")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = materials(a.tables)
    with chess.syzygy.open_tablebase(a.tables) as tb:
        won = pick(rng, tb, names, {2}, a.games)
        drawn = pick(rng, tb, names, {0}, a.games)
    failures = 0
    engine = chess.engine.SimpleEngine.popen_uci(a.binary)
    try:
        engine.configure({"SyzygyPath": a.tables, "Hash": 16})
        for kind, boards in (("won", won), ("drawn", drawn)):
            passed = 0
            for start in boards:
                board = start.copy()
                outcome = play(engine, board, a.movetime)
                plies = len(board.move_stack)
                if kind == "won":
                    ok = outcome.winner == start.turn
                else:
                    ok = outcome.winner is None
                passed += ok
                failures += not ok
                print(f"{kind} {'ok  ' if ok else 'FAIL'} {start.fen()} -> "
                      f"{outcome.termination.name} {outcome.result()} in {plies} plies", flush=True)
            print(f"{kind}: {passed}/{len(boards)} passed", flush=True)
    finally:
        engine.quit()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
