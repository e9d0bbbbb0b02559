#!/usr/bin/env python3
"""Checks `cutoff book build` against the same rules written with python-chess.

Reads the PGN files with chess.pgn, scores each (position, move) of the first
PLIES moves of every game (2 per win of the side that moved, 1 per draw or
unknown result, 0 per loss), keeps those seen in MIN_GAMES games or more with
a score above 0, scales weights to 16 bits if need be, and compares the
entries with the book Cutoff builds (byte for byte after sorting by key,
weight descending, move).

    python3 tools/book_build_check.py target/release/cutoff GAMES.pgn [--plies 20] [--min-games 1]

Exits 1 on any difference. Needs `pip install chess`. A game with a move
python-chess cannot read stops there, as in Cutoff.
"""

import argparse
import collections
import os
import struct
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.polyglot


def raw_move(board, move):
    if board.is_castling(move):
        move = board._to_chess960(move)  # king takes rook, as Polyglot stores it
    promo = move.promotion - 1 if move.promotion else 0
    return move.to_square | (move.from_square << 6) | (promo << 12)


def expected(paths, plies, min_games):
    games = collections.Counter()
    score = collections.Counter()
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                white = {"1-0": 2, "0-1": 0}.get(game.headers.get("Result"), 1)
                board = game.board()
                for move in list(game.mainline_moves())[:plies]:
                    k = (chess.polyglot.zobrist_hash(board), raw_move(board, move))
                    games[k] += 1
                    score[k] += white if board.turn == chess.WHITE else 2 - white
                    board.push(move)
    kept = {k: s for k, s in score.items() if games[k] >= min_games and s > 0}
    top = max(kept.values(), default=1)
    def scale(s):
        return s if top <= 65535 else max(1, s * 65535 // top)
    entries = sorted((key, -scale(s), mv) for (key, mv), s in kept.items())
    return [(key, mv, -w) for key, w, mv in entries]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--plies", type=int, default=20)
    ap.add_argument("--min-games", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "book.bin")
        run = subprocess.run([args.binary, "book", "build", "--pgn", *args.pgn, "--out", out,
                              "--plies", str(args.plies), "--min-games", str(args.min_games)],
                             capture_output=True, text=True, check=False)
        print(run.stdout.strip())
        if run.returncode != 0:
            sys.exit(f"build failed: {run.stderr.strip()}")
        data = open(out, "rb").read()
    got = [struct.unpack(">QHHI", data[i:i + 16])[:3] for i in range(0, len(data), 16)]
    want = expected(args.pgn, args.plies, args.min_games)
    same = got == want
    print(f"cutoff {len(got)} entries, python-chess {len(want)} entries: "
          f"{'identical' if same else 'DIFFERENT'}")
    if not same:
        diff = set(got) ^ set(want)
        print(f"{len(diff)} entries differ, e.g. {sorted(diff)[:5]}", file=sys.stderr)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
