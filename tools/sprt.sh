#!/bin/sh
# SPRT of a new build against a base build with ../shared/tools/match.py,
# under the conditions of match_conditions.sh.
#
# usage: tools/sprt.sh NEW_BINARY BASE_BINARY [TC] [ELO0] [ELO1] [SEED] [PGN]
#   e.g. tools/sprt.sh target/release/cutoff base/cutoff 5+0.05 0 10
#   (base/cutoff: a release build of the base commit)
# Stops when H0 (gain <= ELO0) or H1 (gain >= ELO1) is accepted.
set -eu
NEW=$1
BASE=$2
TC=${3:-5+0.05}
ELO0=${4:-0}
ELO1=${5:-10}
SEED=${6:-1}
PGN=${7:-sprt.pgn}
. "$(dirname "$0")/match_conditions.sh"
match --engine name=new cmd="$NEW" --engine name=base cmd="$BASE" \
  --games 4000 --tc "$TC" --seed "$SEED" \
  --sprt elo0="$ELO0" elo1="$ELO1" --pgn "$PGN"
