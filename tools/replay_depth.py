#!/usr/bin/env python3
"""Replays the positions of played games, in order, at a node limit, and
prints the mean depth reached and the speed.

Each game's positions are searched one after another after one
`ucinewgame`, as in a game, so the histories and the correction tables
learn across the moves as they do in play (`cutoff bench` clears them
before each position). At equal nodes, a change that makes the tree of a
game bigger shows as a lower mean depth.

    tools/replay_depth.py ENGINE GAMES.pgn [--nodes N] [--games K]
        [--plies P] [--option NAME=VALUE ...]

Run two engines (or two option sets) on the same games and compare.
"""

import argparse
import sys
import time

import chess.pgn

from uci_pipe import read_until, send, start


def read_games(path, count):
    games = []
    with open(path) as f:
        while len(games) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    return games


def search(proc, position, nodes):
    """(depth, nodes) of the last `info depth` line of a `go nodes`."""
    send(proc, position)
    send(proc, f"go nodes {nodes}")
    last = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("engine exited")
        if line.startswith("info depth") and " nodes " in line:
            last = line.split()
        if line.startswith("bestmove"):
            break
    return int(last[last.index("depth") + 1]), int(last[last.index("nodes") + 1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("pgn")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=100, help="plies of each game replayed")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    options = [tuple(o.split("=", 1)) for o in args.option]
    if any(len(o) != 2 for o in options):
        sys.exit("--option takes NAME=VALUE")
    proc = start(args.engine)
    for name, value in options + [("Hash", "16")]:
        send(proc, f"setoption name {name} value {value}")
    depths, nodes, seconds = [], 0, 0.0
    for game in read_games(args.pgn, args.games):
        send(proc, "ucinewgame")
        send(proc, "isready")
        read_until(proc, "readyok")
        fen = game.headers.get("FEN")
        root = f"position fen {fen}" if fen else "position startpos"
        moves = [m.uci() for m in game.mainline_moves()][: args.plies]
        for k in range(len(moves)):
            position = root + (" moves " + " ".join(moves[:k]) if k else "")
            t = time.time()
            depth, n = search(proc, position, args.nodes)
            seconds += time.time() - t
            depths.append(depth)
            nodes += n
    send(proc, "quit")
    proc.wait()
    if not depths:
        sys.exit("no positions in the games")
    mean = sum(depths) / len(depths)
    print(f"{args.engine} {' '.join(args.option)}: {len(depths)} positions, "
          f"mean depth {mean:.2f}, {nodes / seconds:.0f} nps")


if __name__ == "__main__":
    main()
