#!/bin/sh
# Plays two network files against each other in the same Cutoff binary
# (`EvalFile`), at a fixed node count per move (so the match measures the
# evaluation alone and is immune to a busy machine), or at a time control,
# with fastchess under the conditions of match_conditions.sh. `<embedded>`
# names the built-in network.
#
# usage: tools/net_match.sh BINARY NET_A NET_B GAMES [SEED] [NODES|TC] [PGN]
#   e.g. tools/net_match.sh target/release/cutoff net3/net.nnue '<embedded>' 600 3
#        tools/net_match.sh target/release/cutoff net3/net.nnue '<embedded>' 600 3 5+0.05
# NODES (default 10000) is a number; anything with a '+' is a time control.
# FASTCHESS (default: fastchess on PATH) is the runner.
set -eu
BIN=$1
A=$2
B=$3
GAMES=$4
SEED=${5:-3}
LIMIT=${6:-10000}
PGN=${7:-net_match.pgn}
. "$(dirname "$0")/match_conditions.sh"
match "$PGN" "$LIMIT" -engine name=A cmd="$BIN" option.EvalFile="$A" \
  -engine name=B cmd="$BIN" option.EvalFile="$B" \
  -rounds "$(rounds "$GAMES")" -srand "$SEED"
