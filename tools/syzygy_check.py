#!/usr/bin/env python3
"""Checks Cutoff's Syzygy probes against python-chess's chess.syzygy.

Usage: tools/syzygy_check.py BINARY TABLES [--positions N] [--seed S]

Generates N random legal positions (no castling, 3 or 4 pieces, material
drawn from the tables found in TABLES), asks `BINARY tb probe --path TABLES`
for each (one process, FENs on stdin), and compares WDL (and DTZ, reported
apart: the acceptance is WDL). Exits 1 on any WDL mismatch.
"""
import argparse
import os
import random
import subprocess
import sys

import chess
import chess.syzygy

LETTERS = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def materials(folder):
    """Table names (e.g. KRvKP) present as both .rtbw and .rtbz."""
    names = set()
    for f in os.listdir(folder):
        stem, ext = os.path.splitext(f)
        if ext == ".rtbw" and os.path.exists(os.path.join(folder, stem + ".rtbz")):
            names.add(stem)
    return sorted(names)


def random_position(rng, name):
    """A random legal placement of the material `name`, or None."""
    white, black = name.split("v")
    if rng.random() < 0.5:
        white, black = black, white  # either colour holds the stronger side
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for side, color in ((white, chess.WHITE), (black, chess.BLACK)):
        for letter in side:
            sq = squares.pop()
            piece = chess.KING if letter == "K" else LETTERS[letter]
            if piece == chess.PAWN and chess.square_rank(sq) in (0, 7):
                return None
            board.set_piece_at(sq, chess.Piece(piece, color))
    board.turn = rng.random() < 0.5
    return board if board.is_valid() else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tables")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=17)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    names = materials(a.tables)
    boards = []
    while len(boards) < a.positions:
        b = random_position(rng, rng.choice(names))
        if b is not None:
            boards.append(b)
    fens = "".join(b.fen() + "\n" for b in boards)
    out = subprocess.run(
        [a.binary, "tb", "probe", "--path", a.tables],
        input=fens, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    if len(out) != len(boards):
        sys.exit(f"expected {len(boards)} lines from Cutoff, got {len(out)}")
    wdl_bad = dtz_bad = mated = 0
    with chess.syzygy.open_tablebase(a.tables) as tb:
        for b, line in zip(boards, out):
            fields = line.split()
            got = dict(zip(fields[::2], fields[1::2]))
            want_wdl = tb.probe_wdl(b)
            want_dtz = tb.probe_dtz(b)
            if got.get("wdl") != str(want_wdl):
                wdl_bad += 1
                print(f"WDL mismatch: {b.fen()}: cutoff '{line}', python-chess {want_wdl}")
            elif b.is_checkmate() and got.get("dtz") == "0" and want_dtz == -1:
                mated += 1  # conventions: Cutoff (Fathom) says 0, python-chess -1
            elif got.get("dtz") != str(want_dtz):
                dtz_bad += 1
                print(f"DTZ differs: {b.fen()}: cutoff '{line}', python-chess {want_dtz}")
    print(f"positions {len(boards)} tables {len(names)} wdl_mismatches {wdl_bad} dtz_differences {dtz_bad} "
          f"(checkmates, DTZ 0 here and -1 in python-chess: {mated})")
    sys.exit(1 if wdl_bad else 0)


if __name__ == "__main__":
    main()
