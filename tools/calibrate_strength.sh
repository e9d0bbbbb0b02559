#!/bin/sh
# Plays Cutoff with UCI_LimitStrength at UCI_Elo CUTOFF_ELO against Stockfish
# 15.1 (/usr/games/stockfish) limited to UCI_Elo SF_ELO (1350..2850), under
# the conditions of match_conditions.sh (two games at once unless
# CONCURRENCY says otherwise). docs/strength.md has the calibration.
#
# usage: tools/calibrate_strength.sh CUTOFF_ELO SF_ELO GAMES [SEED] [PGN]
#   e.g. tools/calibrate_strength.sh 2000 2000 40 1 cal-2000.pgn
# CUTOFF (default target/release/cutoff), TC (default 10+0.1), CONCURRENCY
# (default 2); SHARED (default ../shared) locates match.py and the openings.
set -eu
CUTOFF_ELO=$1
SF_ELO=$2
GAMES=$3
SEED=${4:-1}
PGN=${5:-strength-$CUTOFF_ELO-vs-$SF_ELO.pgn}
. "$(dirname "$0")/match_conditions.sh"
match --engine name=cutoff-"$CUTOFF_ELO" cmd="${CUTOFF:-target/release/cutoff}" \
    option.UCI_LimitStrength=true option.UCI_Elo="$CUTOFF_ELO" \
  --engine name=sf-"$SF_ELO" cmd=/usr/games/stockfish \
    option.UCI_LimitStrength=true option.UCI_Elo="$SF_ELO" \
  --games "$GAMES" --tc "${TC:-10+0.1}" --seed "$SEED" --pgn "$PGN" \
  --concurrency "${CONCURRENCY:-2}"
