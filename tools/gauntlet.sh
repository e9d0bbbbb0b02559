#!/bin/sh
# Plays Cutoff against the Debian reference engines (toga2, glaurung,
# ethereal-chess) with ../shared/tools/match.py, one thread and 16 MB hash
# each, two games at once, balanced openings played with both colours.
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
SHARED=${SHARED:-../shared}
PATH=$PATH:/usr/games
exec python3 "$SHARED/tools/match.py" \
  --engine name=cutoff cmd="$ENGINE" \
  --engine name=toga2 cmd=toga2 option.OwnBook=false \
  --engine name=glaurung cmd=glaurung option.OwnBook=false \
  --engine name=ethereal cmd=ethereal-chess \
  --each option.Hash=16 option.Threads=1 \
  --tournament gauntlet --games "$GAMES" --tc "$TC" --concurrency 2 \
  --openings "$SHARED/data/openings/8moves_v3.pgn" --seed "$SEED" \
  --resign movecount=4 score=1000 twosided=1 --pgn "$PGN"
