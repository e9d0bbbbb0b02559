#!/bin/sh
# SPRT of a new build against a base build with fastchess, under the
# conditions of match_conditions.sh, until H0 or H1 is accepted (at most
# GAMES games, default 4000).
#
# usage: tools/sprt.sh NEW_BINARY BASE_BINARY [TC] [ELO0] [ELO1] [SEED] [PGN]
#   e.g. tools/sprt.sh target/release/cutoff base/cutoff 5+0.05 0 10
#   (base/cutoff: a release build of the base commit)
# TC is a time control (5+0.05) or a node count per move (10000).
# The test is fastchess's own GSPRT on game pairs (pentanomial), alpha =
# beta = 0.05, model=normalized: ELO0 and ELO1 are normalized Elo (nElo), as
# they were with match.py before, whose default model this was too. H1 is
# "gain >= ELO1", H0 "gain <= ELO0". A run stopped early can be pooled with a
# later one (new SEED and PGN) by tools/sprt_pgn.py --engine new.
# FASTCHESS (default: fastchess on PATH) is the runner; GAMES caps the run.
# NEW_OPTIONS and BASE_OPTIONS (default none) are UCI options for each side
# as fastchess takes them, e.g. NEW_OPTIONS="option.rfp_margin=90" to play
# tuned values of a `--features spsa` build against its defaults (the same
# binary as NEW and BASE).
set -eu
NEW=$1
BASE=$2
TC=${3:-5+0.05}
ELO0=${4:-0}
ELO1=${5:-10}
SEED=${6:-1}
PGN=${7:-sprt.pgn}
. "$(dirname "$0")/match_conditions.sh"
# shellcheck disable=SC2086 # the options are words of key=value
match "$PGN" "$TC" -engine name=new cmd="$NEW" ${NEW_OPTIONS:-} \
  -engine name=base cmd="$BASE" ${BASE_OPTIONS:-} \
  -rounds "$(rounds "${GAMES:-4000}")" -srand "$SEED" \
  -sprt elo0="$ELO0" elo1="$ELO1" alpha=0.05 beta=0.05 model=normalized
