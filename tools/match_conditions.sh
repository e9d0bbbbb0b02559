# The match conditions shared by sprt.sh, ablation_elo.sh and gauntlet.sh:
# one thread and 16 MB hash per engine, two games at once, the balanced
# 8moves_v3 openings (each played with both colours), resignation after four
# moves at 10 pawns or more. Sourced, not run.
#
# match ARGS...: ../shared/tools/match.py with these conditions plus ARGS.
# limit_args LIMIT: the match.py flag for LIMIT, a node count (10000) or a
# time control (anything with a '+', e.g. 5+0.05).
# SHARED (default ../shared) locates match.py and the opening file.
SHARED=${SHARED:-../shared}

match() {
  python3 "$SHARED/tools/match.py" \
    --each option.Hash=16 option.Threads=1 --concurrency 2 \
    --openings "$SHARED/data/openings/8moves_v3.pgn" \
    --resign movecount=4 score=1000 twosided=1 "$@"
}

limit_args() {
  case $1 in
    *+*) echo "--tc $1" ;;
    *) echo "--nodes $1" ;;
  esac
}
