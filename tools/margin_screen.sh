#!/bin/sh
# Checks the evaluation margins on another scale: builds Cutoff with every
# margin measured against the evaluation at PERCENT of its value
# (`search::params::MARGIN_PERCENT`) and plays it against BASE, at a fixed
# node count per move (default 10000) or a time control, under the
# conditions of match_conditions.sh. Run from the repository root.
#
# usage: tools/margin_screen.sh PERCENT BASE_BINARY GAMES [SEED] [NODES|TC] [PGN]
#   e.g. tools/margin_screen.sh 80 target/release/cutoff 400 3
set -eu
PERCENT=$1
BASE=$2
GAMES=$3
SEED=${4:-3}
LIMIT=${5:-10000}
PGN=${6:-margin-$PERCENT.pgn}
TARGET=target/margin-$PERCENT
CUTOFF_MARGIN_PERCENT=$PERCENT cargo build --release --quiet --target-dir "$TARGET"
. "$(dirname "$0")/match_conditions.sh"
# shellcheck disable=SC2046 # limit_args gives two words on purpose
match --engine name="margins$PERCENT" cmd="$TARGET/release/cutoff" \
  --engine name=base cmd="$BASE" \
  --games "$GAMES" --seed "$SEED" $(limit_args "$LIMIT") --pgn "$PGN"
