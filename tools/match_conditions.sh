# shellcheck shell=sh
# The match conditions of sprt.sh, gauntlet.sh, ablation_elo.sh,
# calibrate_strength.sh and net_match.sh, for the match runner fastchess
# (github.com/Disservin/fastchess, MIT): one thread and 16 MB hash per
# engine, two games at once, the openings of openings/8moves_v3-2000.epd
# in an order drawn from the seed, each played with both colours, resignation
# when for four moves both engines agree that one side is 10 pawns or more
# ahead; no draw adjudication, a move may overrun its clock by 50 ms, and no
# -recover (a crash or disconnection ends the run). Results are fastchess's
# own report (pentanomial; Elo and normalized Elo). Sourced, not run.
#
# match PGN LIMIT [FASTCHESS ARGUMENTS]: fastchess with these conditions at
#   LIMIT (see limit_args), its games appended to PGN, the state it keeps
#   for a resumption (`fastchess -config file=...`) in PGN less .pgn plus
#   .fastchess.json; then the engines (-engine ...), -rounds, -srand, -sprt.
# limit_args LIMIT: the engine keys for LIMIT, a node count per move (10000)
#   or a time control in seconds (anything with a '+': 5+0.05, or moves
#   per period with a '/': 40/60, 40 moves in 60 s, repeated); none for
#   '-', when each -engine names its own (tc=20+0.2), since a limit given to
#   all engines overrides theirs.
# rounds GAMES: fastchess's -rounds for GAMES games (two games a round, so
#   GAMES is rounded up to even).
# fastchess_runner: the runner's path. FASTCHESS (default: fastchess on
# PATH) is the runner; OPENINGS (default the suite beside this file) an EPD
# file of start positions; OPENINGS_START (default 1) the place in the
# seed's order of the first round's opening, so a stopped run of N rounds
# goes on with the same openings from N+1 under the same seed; CONCURRENCY
# (default 2) the games at once (1 with `taskset -c 1` plays one game on one
# core while other work has the other).

conditions_dir=$(dirname "$0")
[ -f "$conditions_dir/openings/8moves_v3-2000.epd" ] || conditions_dir=tools
OPENINGS=${OPENINGS:-$conditions_dir/openings/8moves_v3-2000.epd}

# fastchess_runner: the path of fastchess, or a message and status 1.
fastchess_runner() {
  runner=${FASTCHESS:-$(command -v fastchess || true)}
  if [ -z "$runner" ] || [ ! -x "$runner" ]; then
    echo "fastchess not found: put it on PATH or set FASTCHESS=/path/to/fastchess" >&2
    return 1
  fi
  echo "$runner"
}

match() {
  runner=$(fastchess_runner) || return 1
  [ -f "$OPENINGS" ] || { echo "no opening file $OPENINGS" >&2; return 1; }
  pgn=$1
  limit=$2
  shift 2
  # shellcheck disable=SC2046 # limit_args gives one or two words on purpose
  "$runner" -each option.Hash=16 option.Threads=1 timemargin=50 $(limit_args "$limit") \
    -concurrency "${CONCURRENCY:-2}" -openings file="$OPENINGS" format=epd order=random start="${OPENINGS_START:-1}" -repeat \
    -resign movecount=4 score=1000 twosided=true \
    -pgnout file="$pgn" -config outname="${pgn%.pgn}.fastchess.json" "$@"
}

limit_args() {
  case $1 in
    -) ;;
    *+* | */*) echo "tc=$1" ;;
    *) echo "nodes=$1" ;;
  esac
}

rounds() {
  echo $((($1 + 1) / 2))
}
