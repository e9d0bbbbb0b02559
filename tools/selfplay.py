#!/usr/bin/env python3
"""Self-play through python-chess: Cutoff against itself, checked move by move.

Each game starts with a few random legal plies (seeded, so games differ but a
run can be replayed), then two Cutoff processes play at a fixed time per move
through chess.engine.SimpleEngine.popen_uci. The run fails if any move is
illegal, the engine reports an error or a protocol warning, or a game does not
end by the rules (checkmate, stalemate, threefold repetition, fifty moves,
insufficient material) within --max-plies.

    python3 tools/selfplay.py --engine target/release/cutoff --games 20 --movetime 0.05

--threads N sets the engines' Threads option (Lazy SMP: the shared table and
the stop paths of helper threads are then exercised too).
"""

import argparse
import logging
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


class WarningCounter(logging.Handler):
    """Counts python-chess's warnings (e.g. unparsable engine output)."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def random_opening(board, plies, rng):
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))


def play_game(engines, limit, args, rng, stats):
    """Plays one game; returns (board, random plies, error or None)."""
    board = chess.Board()
    random_opening(board, args.random_plies, rng)
    opening_len = len(board.move_stack)
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            break
        if len(board.move_stack) >= args.max_plies:
            return board, opening_len, f"no result after {args.max_plies} plies"
        engine = engines[0 if board.turn == chess.WHITE else 1]
        started = time.monotonic()
        result = engine.play(board, limit, game=id(board))
        spent = time.monotonic() - started
        stats["moves"] += 1
        stats["max_time"] = max(stats["max_time"], spent)
        stats["total_time"] += spent
        if result.move is None:
            return board, opening_len, f"no move in {board.fen()}"
        if result.move not in board.legal_moves:
            return board, opening_len, f"illegal move {result.move.uci()} in {board.fen()}"
        board.push(result.move)
    return board, opening_len, None


def to_pgn(board, number, opening_len):
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "Cutoff self-play"
    game.headers["Round"] = str(number)
    game.headers["White"] = game.headers["Black"] = "Cutoff"
    game.headers["Annotator"] = f"first {opening_len} plies random"
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else "*"
    return game


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/cutoff")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--movetime", type=float, default=0.05, help="seconds per move")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="the engines' Threads option")
    ap.add_argument("--pgn", help="write the games to this PGN file")
    args = ap.parse_args()

    warnings = WarningCounter()
    logging.getLogger("chess.engine").addHandler(warnings)
    rng = random.Random(args.seed)
    limit = chess.engine.Limit(time=args.movetime)
    stats = {"moves": 0, "max_time": 0.0, "total_time": 0.0}
    terminations = {}
    errors = []
    pgn_out = open(args.pgn, "w") if args.pgn else None
    engines = [chess.engine.SimpleEngine.popen_uci(args.engine) for _ in range(2)]
    try:
        for e in engines:
            e.configure({"Threads": args.threads})
        for n in range(1, args.games + 1):
            try:
                board, opening_len, error = play_game(engines, limit, args, rng, stats)
            except chess.engine.EngineError as e:  # includes a dead engine
                errors.append(f"game {n}: engine error: {e!r}")
                break
            if error:
                errors.append(f"game {n}: {error}")
                continue
            outcome = board.outcome(claim_draw=True)
            name = outcome.termination.name.lower()
            terminations[name] = terminations.get(name, 0) + 1
            print(f"game {n}: {outcome.result()} by {name} after "
                  f"{len(board.move_stack)} plies", flush=True)
            if pgn_out:
                print(to_pgn(board, n, opening_len), file=pgn_out, end="\n\n")
    finally:
        for e in engines:
            e.quit()
        if pgn_out:
            pgn_out.close()

    errors += [f"python-chess warning: {m}" for m in warnings.messages]
    avg = stats["total_time"] / max(stats["moves"], 1)
    print(f"{args.games} games at Threads {args.threads}, {stats['moves']} engine moves, "
          f"{avg * 1000:.0f} ms average and {stats['max_time'] * 1000:.0f} ms longest "
          f"per move (limit {args.movetime * 1000:.0f} ms)")
    print("terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items())))
    for e in errors:
        print("ERROR " + e)
    print(f"{sum(terminations.values())} passed, {len(errors)} failed")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
