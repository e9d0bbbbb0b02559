#!/bin/sh
# Plays Cutoff against the Debian reference engines (toga2, glaurung,
# ethereal-chess) with ../shared/tools/match.py, under the conditions of
# match_conditions.sh.
#
# usage: tools/gauntlet.sh CUTOFF_BINARY GAMES_PER_OPPONENT [TC] [SEED] [PGN]
#   e.g. tools/gauntlet.sh target/release/cutoff 200 5+0.05 1 gauntlet.pgn
# SHARED (default ../shared) locates match.py and the opening file.
set -eu
ENGINE=$1
GAMES=$2
TC=${3:-5+0.05}
SEED=${4:-1}
PGN=${5:-gauntlet.pgn}
. "$(dirname "$0")/match_conditions.sh"
PATH=$PATH:/usr/games
match --engine name=cutoff cmd="$ENGINE" \
  --engine name=toga2 cmd=toga2 option.OwnBook=false \
  --engine name=glaurung cmd=glaurung option.OwnBook=false \
  --engine name=ethereal cmd=ethereal-chess \
  --tournament gauntlet --games "$GAMES" --tc "$TC" --seed "$SEED" --pgn "$PGN"
