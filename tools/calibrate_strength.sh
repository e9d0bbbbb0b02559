#!/bin/sh
# Plays Cutoff with UCI_LimitStrength at UCI_Elo CUTOFF_ELO against Stockfish
# 15.1 (/usr/games/stockfish) limited to UCI_Elo SF_ELO (1350..2850) with
# fastchess, under the conditions of match_conditions.sh (two games at once
# unless CONCURRENCY says otherwise). docs/strength.md has the calibration.
#
# usage: tools/calibrate_strength.sh CUTOFF_ELO SF_ELO GAMES [SEED] [PGN]
#   e.g. tools/calibrate_strength.sh 2000 2000 40 1 cal-2000.pgn
# CUTOFF_ELO `full` plays Cutoff at full strength (no UCI_LimitStrength):
#   tools/calibrate_strength.sh full 2850 400 701 full-vs-2850.pgn
# CUTOFF (default target/release/cutoff), STOCKFISH (default
# /usr/games/stockfish), TC (default 10+0.1), CONCURRENCY (default 2);
# FASTCHESS (default: fastchess on PATH) is the runner.
set -eu
CUTOFF_ELO=$1
SF_ELO=$2
GAMES=$3
SEED=${4:-1}
PGN=${5:-strength-$CUTOFF_ELO-vs-$SF_ELO.pgn}
. "$(dirname "$0")/match_conditions.sh"
# Stockfish with UCI_LimitStrength plays moves other than its PV's first;
# fastchess warns of each (four lines), and those are dropped here; the exit
# status is fastchess's.
if [ "$CUTOFF_ELO" = full ]; then
  limit=
else
  limit="option.UCI_LimitStrength=true option.UCI_Elo=$CUTOFF_ELO"
fi
# shellcheck disable=SC2086 # $limit is two key=value words or none
status=$( { { match "$PGN" "${TC:-10+0.1}" \
  -engine name=cutoff-"$CUTOFF_ELO" cmd="${CUTOFF:-target/release/cutoff}" $limit \
  -engine name=sf-"$SF_ELO" cmd="${STOCKFISH:-/usr/games/stockfish}" \
    option.UCI_LimitStrength=true option.UCI_Elo="$SF_ELO" \
  -rounds "$(rounds "$GAMES")" -srand "$SEED" -concurrency "${CONCURRENCY:-2}" \
  && echo 0 >&3 || echo $? >&3; } 2>&1 |
  awk '/^Warning; Bestmove does not match beginning of last PV.* from sf-/ { skip = 1; next }
    skip && /^(Info|Position|Moves); / { next }
    { skip = 0; print; fflush() }' >&4; } 3>&1) 4>&1
exit "$status"
