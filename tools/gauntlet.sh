#!/bin/sh
# Plays Cutoff against the Debian reference engines (toga2, glaurung,
# ethereal-chess) with fastchess, under the conditions of
# match_conditions.sh: one match per opponent, all three from the same
# openings (the seed's), their games appended to one PGN; fastchess reports
# each match.
#
# usage: tools/gauntlet.sh CUTOFF_BINARY GAMES_PER_OPPONENT [TC] [SEED] [PGN]
#   e.g. tools/gauntlet.sh target/release/cutoff 200 5+0.05 1 gauntlet.pgn
# TC is a time control (5+0.05) or a node count per move (10000).
# FASTCHESS (default: fastchess on PATH) is the runner.
#
# (Not one fastchess -tournament gauntlet: with more than two engines
# fastchess 1.8 takes as many openings as rounds for all the pairings
# together, so each opponent would meet half of them twice.)
set -eu
ENGINE=$1
GAMES=$2
TC=${3:-5+0.05}
SEED=${4:-1}
PGN=${5:-gauntlet.pgn}
. "$(dirname "$0")/match_conditions.sh"
PATH=$PATH:/usr/games
for opponent in "name=toga2 cmd=toga2 option.OwnBook=false" \
  "name=glaurung cmd=glaurung option.OwnBook=false" \
  "name=ethereal cmd=ethereal-chess"; do
  # shellcheck disable=SC2086 # $opponent is a list of key=value words
  match "$PGN" "$TC" -engine name=cutoff cmd="$ENGINE" -engine $opponent \
    -rounds "$(rounds "$GAMES")" -srand "$SEED"
done
