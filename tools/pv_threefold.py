#!/usr/bin/env python3
"""Replays the positions of fastchess's "PV continues after threefold
repetition" warnings with an engine and counts those where a principal
variation the engine prints still runs past a threefold repetition.

usage: tools/pv_threefold.py ENGINE LOG... [--depth 18] [--max 40]

LOG is fastchess's output (its warnings are followed by the engine's info
line, the position and the moves). Each distinct position is searched from
a fresh engine to the warning's depth (at most --depth); python-chess
counts the repetitions of the game and of every printed line.
"""

import argparse
import random
import re
import subprocess
import sys
from collections import Counter

import chess


def warnings(paths):
    cases = {}
    for path in paths:
        lines = open(path, errors="replace").read().splitlines()
        for i, line in enumerate(lines[:-3]):
            if not line.startswith("Warning; PV continues after threefold"):
                continue
            info, pos, moves = lines[i + 1 : i + 4]
            if not (info.startswith("Info;") and pos.startswith("Position;") and moves.startswith("Moves;")):
                continue
            depth = int(re.search(r"depth (\d+)", info).group(1))
            fen = pos[len("Position;") :].strip().removeprefix("fen ")
            played = moves[len("Moves;") :].split()
            cases[(fen, " ".join(played))] = (fen, played, depth)
    return list(cases.values())


def runs_past_threefold(fen, played, pv):
    board = chess.Board() if fen == "startpos" else chess.Board(fen)
    seen = Counter([board._transposition_key()])
    for mv in played:
        board.push_uci(mv)
        seen[board._transposition_key()] += 1
    for i, mv in enumerate(pv):
        board.push_uci(mv)
        key = board._transposition_key()
        seen[key] += 1
        if seen[key] >= 3 and i < len(pv) - 1:
            return True
    return False


def lines_of(engine, fen, played, depth):
    where = "startpos" if fen == "startpos" else f"fen {fen}"
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(f"uci\nposition {where} moves {' '.join(played)}\ngo depth {depth}\n")
    proc.stdin.flush()
    pvs = []
    for line in proc.stdout:
        if line.startswith("bestmove"):
            break
        if " pv " in line:
            pvs.append(line.split(" pv ", 1)[1].split())
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return pvs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--depth", type=int, default=18, help="deepest search (default 18)")
    ap.add_argument("--max", type=int, default=40, help="positions at most, drawn at random (default 40)")
    a = ap.parse_args()
    cases = warnings(a.logs)
    random.Random(1).shuffle(cases)
    cases = cases[: a.max]
    if not cases:
        sys.exit("no warnings with their position in the logs")
    bad = sum(
        any(runs_past_threefold(fen, played, pv) for pv in lines_of(a.engine, fen, played, min(depth, a.depth)))
        for fen, played, depth in cases
    )
    print(f"{len(cases)} positions, {bad} with a principal variation past a threefold")


if __name__ == "__main__":
    main()
