#!/usr/bin/env python3
"""Checks `cutoff book probe` against python-chess's chess.polyglot.

Walks random book lines (from the start position, a random book move at each
step, or a move into a position the book knows when it has none here, until
neither exists) and compares, at every position of every line,
the Polyglot key and the list `<uci move> <weight>`, highest weight first (ties
in the book's order). Positions with a castling book move are also compared in
Chess960 notation (king takes rook).

    python3 tools/book_check.py target/release/cutoff BOOK.bin [--lines 100] [--seed 1]

Prints the counts; exits 1 on any disagreement. Needs `pip install chess`.
"""

import argparse
import random
import subprocess
import sys

import chess
import chess.polyglot


def expected(reader, board):
    """python-chess's entries, in the order `cutoff book probe` prints them."""
    entries = list(reader.find_all(board, minimum_weight=0))
    entries.sort(key=lambda e: -e.weight)  # stable: ties keep the book's order
    return entries


def leads_into_book(reader, board, move):
    board.push(move)
    known = next(iter(reader.find_all(board, minimum_weight=0)), None) is not None
    board.pop()
    return known


def probe(binary, book, board, chess960):
    cmd = [binary, "book", "probe", "--fen", board.fen(), "--book", book, "--key"]
    if chess960:
        cmd.append("--chess960")
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, [f"exit {out.returncode}: {out.stderr.strip()}"]
    lines = out.stdout.split("\n")
    return lines[0], [line for line in lines[1:] if line]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("book")
    ap.add_argument("--lines", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    positions = entries_seen = castling_checks = mismatches = 0
    longest = 0
    with chess.polyglot.open_reader(args.book) as reader:
        for line in range(args.lines):
            board = chess.Board()
            while True:
                positions += 1
                want = expected(reader, board)
                entries_seen += len(want)
                key, got = probe(args.binary, args.book, board, False)
                want_key = f"key {chess.polyglot.zobrist_hash(board):016x}"
                want_lines = [f"{e.move.uci()} {e.weight}" for e in want]
                if key != want_key or got != want_lines:
                    mismatches += 1
                    print(f"MISMATCH line {line} {board.fen()}\n  cutoff {key} {got}\n"
                          f"  python {want_key} {want_lines}", file=sys.stderr)
                if any(board.is_castling(e.move) for e in want):
                    castling_checks += 1
                    b960 = board.copy()
                    b960.chess960 = True
                    want960 = [f"{b960._to_chess960(e.move).uci()} {e.weight}" for e in want]
                    _, got960 = probe(args.binary, args.book, board, True)
                    if got960 != want960:
                        mismatches += 1
                        print(f"MISMATCH (960) {board.fen()}: {got960} vs {want960}",
                              file=sys.stderr)
                if want:
                    board.push(rng.choice(want).move)
                    continue
                # Books of one side's moves (lasker-trap.bin): step over the
                # other side's move to a position the book knows, if any.
                into_book = [m for m in board.legal_moves if leads_into_book(reader, board, m)]
                if not into_book:
                    break
                board.push(rng.choice(into_book))
            longest = max(longest, len(board.move_stack))
    print(f"{args.book}: {args.lines} lines, {positions} positions, {entries_seen} entries, "
          f"{castling_checks} castling positions also in Chess960 notation, "
          f"longest line {longest} plies, {mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
