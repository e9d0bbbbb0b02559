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
import subprocess
import sys
import time

import chess.pgn


def read_games(path, count):
    games = []
    with open(path) as f:
        while len(games) < count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games.append(game)
    return games


class Engine:
    def __init__(self, cmd, options):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"the engine quit before '{token}'")
            if line.startswith(token):
                return line

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def search(self, position, nodes):
        """(depth, nodes) of the last `info depth` line of a `go nodes`."""
        self.send(position)
        self.send(f"go nodes {nodes}")
        last = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("the engine quit during a search")
            if line.startswith("info depth") and " nodes " in line:
                last = line.split()
            if line.startswith("bestmove"):
                break
        return int(last[last.index("depth") + 1]), int(last[last.index("nodes") + 1])

    def quit(self):
        self.send("quit")
        self.p.wait()


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
    engine = Engine(args.engine, options)
    engine.send("setoption name Hash value 16")
    depths, nodes, seconds = [], 0, 0.0
    for game in read_games(args.pgn, args.games):
        engine.new_game()
        fen = game.headers.get("FEN")
        start = f"position fen {fen}" if fen else "position startpos"
        moves = [m.uci() for m in game.mainline_moves()][: args.plies]
        for k in range(len(moves)):
            position = start + (" moves " + " ".join(moves[:k]) if k else "")
            t = time.time()
            depth, n = engine.search(position, args.nodes)
            seconds += time.time() - t
            depths.append(depth)
            nodes += n
    engine.quit()
    if not depths:
        sys.exit("no positions in the games")
    mean = sum(depths) / len(depths)
    print(f"{args.engine} {' '.join(args.option)}: {len(depths)} positions, "
          f"mean depth {mean:.2f}, {nodes / seconds:.0f} nps")


if __name__ == "__main__":
    main()
