#!/usr/bin/env python3
"""Builds a mate test suite: positions from EPD files where Stockfish proves a
forced mate in 1..7, written as EPD with `dm N` (direct mate in N moves) and
`bm` (Stockfish's first move).

    python3 tools/make_mate_suite.py --stockfish /usr/games/stockfish \
        --depth 24 --out data/mates.epd input1.epd [input2.epd ...]

Each candidate is searched twice (to `--depth`, then 4 plies deeper); a
position is kept only if both searches report the same mate distance, so
that N is the shortest mate Stockfish can find, not a first, longer one.
"""
import argparse
import random

import chess
import chess.engine


def random_endgames(count, seed):
    """Random legal KQvK and KRvK positions (White to move): long mates."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 3)
        piece = rng.choice([chess.QUEEN, chess.ROOK])
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(squares[2], chess.Piece(piece, chess.WHITE))
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_game_over():
            out.append(board)
    return out


def mate_of(engine, board, depth):
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    score = info["score"].pov(board.turn)
    pv = info.get("pv", [])
    return (score.mate() if score.is_mate() else None), (pv[0] if pv else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stockfish", default="stockfish")
    ap.add_argument("--depth", type=int, default=24)
    ap.add_argument("--max-mate", type=int, default=7)
    ap.add_argument("--out", required=True)
    ap.add_argument("--endgames", type=int, default=0, help="also try N random KQvK/KRvK positions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mate-in-one", type=int, default=0,
                    help="also derive N mate-in-1 positions by playing 2 plies of kept mate-in-2 lines")
    ap.add_argument("inputs", nargs="*")
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    kept = []
    for path in args.inputs:
        for line in open(path):
            if not line.strip():
                continue
            board, ops = chess.Board.from_epd(line)
            n, mv = mate_of(engine, board, args.depth)
            if n is None or not 1 <= n <= args.max_mate:
                continue
            n2, _ = mate_of(engine, board, args.depth + 4)
            if n2 != n:
                continue
            ident = ops.get("id", f"{path}:{len(kept)}")
            kept.append(f'{board.epd()} bm {board.san(mv)}; dm {n}; id "{ident}";')
            print(kept[-1], flush=True)
    candidates = [(b, f"endgame-{i}") for i, b in enumerate(random_endgames(args.endgames, args.seed))]
    derived = 0
    for line in list(kept):
        if derived >= args.mate_in_one or "dm 2;" not in line:
            continue
        board, _ = chess.Board.from_epd(line)
        info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
        pv = info.get("pv", [])
        if len(pv) >= 2:
            board.push(pv[0])
            board.push(pv[1])
            parent = line.split("id ")[1].strip(' ;"')
            candidates.append((board, f"{parent}-after-2"))
            derived += 1
    for board, ident in candidates:
        n, mv = mate_of(engine, board, args.depth)
        if n is None or not 1 <= n <= args.max_mate or mate_of(engine, board, args.depth + 4)[0] != n:
            continue
        kept.append(f'{board.epd()} bm {board.san(mv)}; dm {n}; id "{ident}";')
        print(kept[-1], flush=True)
    engine.quit()
    with open(args.out, "w") as f:
        f.write("\n".join(kept) + "\n")
    print(f"{len(kept)} positions written to {args.out}")


if __name__ == "__main__":
    main()
