#!/usr/bin/env python3
"""Searches positions sampled from a PGN to a fixed depth twice, with and
without aspiration windows, and lists the positions whose scores differ most:
where a full root window lets a search error reach the root.

usage: tools/aspiration_probe.py CUTOFF GAMES.pgn [--positions 300] [--depth 8]
Needs python-chess. Every 12th position from ply 16 on is a candidate; a
seeded shuffle picks the sample, so runs are reproducible.
"""
import argparse
import random
import statistics

import chess
import chess.engine
import chess.pgn


def sample(pgn_path, count, seed):
    fens = []
    with open(pgn_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for ply, mv in enumerate(game.mainline_moves(), 1):
                board.push(mv)
                if ply >= 16 and ply % 12 == 0 and not board.is_game_over():
                    fens.append(board.fen())
    random.Random(seed).shuffle(fens)
    return fens[:count]


def search_all(binary, fens, depth, aspiration):
    # python-chess sets only listed options: --lab-options lists Search_*.
    engine = chess.engine.SimpleEngine.popen_uci([binary, "--lab-options"])
    engine.configure({"Hash": 16, "Search_Aspiration": aspiration})
    out = []
    for fen in fens:
        # A new game each time: no table or history carried between positions.
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth), game=object())
        score = info["score"].relative.score(mate_score=30000)
        out.append((info["pv"][0].uci(), score, info.get("nodes", 0)))
    engine.quit()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("pgn")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()
    fens = sample(args.pgn, args.positions, args.seed)
    on = search_all(args.engine, fens, args.depth, True)
    off = search_all(args.engine, fens, args.depth, False)
    diffs = [a[1] - b[1] for a, b in zip(on, off)]
    same = sum(a[0] == b[0] for a, b in zip(on, off))
    print(f"positions {len(fens)}, same best move {same}")
    print(f"nodes with aspiration {sum(a[2] for a in on)}, without {sum(b[2] for b in off)}")
    print(f"score with minus without: median {statistics.median(diffs)}, "
          f"mean {statistics.mean(diffs):.1f}")
    worst = sorted(range(len(fens)), key=lambda i: -abs(diffs[i]))[: args.show]
    for i in worst:
        print(f"{diffs[i]:+6d}  {fens[i]}  with {on[i][0]} {on[i][1]}  without {off[i][0]} {off[i][1]}")


if __name__ == "__main__":
    main()
