#!/usr/bin/env python3
"""Runs any UCI engine on the positions of an EPD test suite (bm/am) and
prints, per position, the move played, the depth and time from which that
move stayed the engine's choice, and the final score; then `solved k/n`.

usage: tools/epd_uci.py ENGINE FILE LIMIT [Option=value ...]
LIMIT is seconds per position, or a node count as `700000n`: a node limit
makes the run repeatable and independent of machine load (for comparing two
builds of one engine; engines count nodes differently).
   e.g. tools/epd_uci.py /usr/games/ethereal-chess wac.epd 1 Hash=16
Needs python-chess (pip install chess). One thread, 16 MB hash by default.
"""
import sys

import chess
import chess.engine


def solves(bm, am, move):
    """The rule of `cutoff epd`: one of the best moves (if any), none of the avoided."""
    return move is not None and (not bm or move in bm) and move not in am


def open_engine(cmd, opts):
    """A UCI engine with one thread and 16 MB hash unless `opts` say otherwise."""
    eng = chess.engine.SimpleEngine.popen_uci(cmd)
    eng.configure({"Hash": 16, "Threads": 1, **opts})
    return eng


def positions(path):
    """The (board, operations) of each non-empty line of an EPD file."""
    for line in open(path):
        if line.strip():
            yield chess.Board.from_epd(line.strip())


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    cmd, path, arg = sys.argv[1], sys.argv[2], sys.argv[3]
    if arg.endswith("n"):
        limit = chess.engine.Limit(nodes=int(arg[:-1]))
    else:
        limit = chess.engine.Limit(time=float(arg))
    opts = dict(a.split("=", 1) for a in sys.argv[4:])
    eng = open_engine(cmd, opts)
    solved = total = 0
    for board, ops in positions(path):
        best, since, last = None, (0, 0.0), {}
        # A new game object each time: the engine gets ucinewgame (fresh hash).
        with eng.analysis(board, limit, game=object()) as an:
            for info in an:
                pv = info.get("pv")
                if pv and "depth" in info:
                    if pv[0] != best:
                        best, since = pv[0], (info["depth"], info.get("time", 0.0))
                    last = info
        ok = solves(ops.get("bm", []), ops.get("am", []), best)
        total += 1
        solved += ok
        san = board.san(best) if best else "-"
        print(
            f"{ops.get('id', '?'):10} {'ok ' if ok else 'BAD'} {san:7} "
            f"from d{since[0]} t{since[1]:.2f}s  final d{last.get('depth', '-')} "
            f"score {last.get('score', '-')}",
            flush=True,
        )
    print(f"solved {solved}/{total}")
    eng.quit()


if __name__ == "__main__":
    main()
