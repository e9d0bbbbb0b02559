#!/bin/sh
# Elo of one search technique: the full engine against itself with the
# technique switched off (UCI option Search_<Name>=false; both run as
# `cutoff --lab-options`, which lists the Search_* switches, since fastchess
# sends only options an engine lists), with fastchess under the conditions
# of match_conditions.sh.
#
# usage: tools/ablation_elo.sh CUTOFF_BINARY NAME GAMES [TC] [SEED] [PGN]
#   e.g. tools/ablation_elo.sh target/release/cutoff NullMove 200 5+0.05
# NAME is a switch of crates/engine/src/search/config.rs (TT, NullMove, LMR, Killers, ...),
# or several joined by commas (Killers,History) to switch them off together.
# The Elo of fastchess's report is the full engine's gain over the engine
# without NAME. TC is a time control (5+0.05) or a node count per move.
# FASTCHESS (default: fastchess on PATH) is the runner.
set -eu
ENGINE=$1
NAME=$2
GAMES=$3
TC=${4:-5+0.05}
SEED=${5:-1}
PGN=${6:-ablation.pgn}
. "$(dirname "$0")/match_conditions.sh"
OFF=""
for n in $(echo "$NAME" | tr ',' ' '); do OFF="$OFF option.Search_$n=false"; done
LABEL=$(echo "$NAME" | tr ',' '+')
# shellcheck disable=SC2086  # $OFF is a list of words
match "$PGN" "$TC" -engine name=full cmd="$ENGINE" args=--lab-options \
  -engine name="no$LABEL" cmd="$ENGINE" args=--lab-options $OFF \
  -rounds "$(rounds "$GAMES")" -srand "$SEED"
