#!/bin/sh
# The ladder past Stockfish's strength dial: Cutoff at a clock against full
# Stockfish 15.1 limited to a number of nodes a move (`go nodes N`: the same
# opponent on any machine, since a node-limited search does not depend on
# the machine's speed), with fastchess under the conditions of
# match_conditions.sh. Cutoff's side does depend on the machine, so its
# `bench` speed is printed first: report it beside the result.
#
# usage: tools/ladder.sh SF_NODES GAMES [SEED] [PGN]
#   e.g. tools/ladder.sh 60000 400 1 ladder-60k.pgn
# CUTOFF (default target/release/cutoff), STOCKFISH (default
# /usr/games/stockfish, Debian's `stockfish` package), TC (Cutoff's clock,
# default 10+0.1), CONCURRENCY (default 2), OPENINGS_START (default 1);
# FASTCHESS (default: fastchess on PATH) is the runner. Both engines get one
# thread and Hash 16. Stockfish keeps no clock: it answers every move with
# a search of SF_NODES nodes.
set -eu
SF_NODES=$1
GAMES=$2
SEED=${3:-1}
PGN=${4:-ladder-$SF_NODES.pgn}
CUTOFF=${CUTOFF:-target/release/cutoff}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
. "$(dirname "$0")/match_conditions.sh"
for exe in "$CUTOFF" "$STOCKFISH"; do
  [ -x "$exe" ] || { echo "ladder: $exe is not an executable" >&2; exit 1; }
done
echo "ladder: $("$CUTOFF" bench 2>&1 | grep -E '^Bench: ' | tail -n 1) (this machine's speed for Cutoff)"
match "$PGN" - \
  -engine name=cutoff cmd="$CUTOFF" tc="${TC:-10+0.1}" \
  -engine name=sf-"$SF_NODES"n cmd="$STOCKFISH" nodes="$SF_NODES" \
  -rounds "$(rounds "$GAMES")" -srand "$SEED"
