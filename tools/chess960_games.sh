#!/bin/sh
# Chess960 games: Cutoff against itself from random Chess960
# start positions (seeded), through tools/soak.py. It fails (exit status 1)
# on any illegal move, crash, hang, time loss or warning, and on any
# `info ... pv` or `bestmove` move that is illegal or writes castling other
# than king takes rook (UCI_Chess960 is set by python-chess).
#
# usage: tools/chess960_games.sh [GAMES] [TC] [PGN] [SEED]
#   defaults: 100 games at 5+0.05 into chess960.pgn, seed 1; two games at a
#   time with one thread each (2 cores). PONDER=both ponders instead, one
#   game at a time. ENGINE (default target/release/cutoff) is the binary.
#   e.g. tools/chess960_games.sh 100 5+0.05 chess960.pgn 1
set -eu
PONDER=${PONDER:-none}
CONCURRENCY=2
[ "$PONDER" = none ] || CONCURRENCY=1
exec python3 "$(dirname "$0")/soak.py" --engine "${ENGINE:-target/release/cutoff}" \
  --chess960 --games "${1:-100}" --tc "${2:-5+0.05}" --pgn "${3:-chess960.pgn}" \
  --seed "${4:-1}" --option Threads=1 --option Hash=16 --ponder "$PONDER" \
  --concurrency "$CONCURRENCY" --event "Cutoff Chess960"
