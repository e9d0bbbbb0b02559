#!/bin/sh
# Soak games: Cutoff against itself and against Debian engines at
# 1+0.01 and 10+0.1, Threads 1 and 2, Hash 1 and 256 MB, pondering in some;
# then stalls injected into Cutoff to see whether its clock reserve survives.
# Crashes, illegal moves, time losses and disconnections must all be zero.
#
# usage: tools/soak.sh OUTDIR [FAST_GAMES] [SLOW_GAMES] [STALL_GAMES] [STALL_MS] [STALL_RATE]
#   FAST_GAMES  games at 1+0.01 in all (default 1000), SLOW_GAMES at 10+0.1
#   (default 400), each split evenly over the six runs below (rounded up to
#   an even number per run; 0 skips the time control). STALL_GAMES (default
#   100) self-play games at 5+0.05 in which a share STALL_RATE (default 0.1)
#   of one engine's moves are stopped (SIGSTOP) for STALL_MS (default 300) ms.
#   A short check: tools/soak.sh soak-check 12 0 2
# ENGINE (default target/release/cutoff) is the binary. Plain games are
# played by fastchess (FASTCHESS, default: fastchess on PATH) from the
# openings of tools/openings, pondering and stalls by tools/soak.py
# (python-chess). SEED_BASE (default 0) is added to every run's seed, so a
# second run plays other openings. OUTDIR gets one PGN and one log per run
# and summary.txt. Exit status 1 if anything failed.
#
# The machine has 2 cores: no run keeps more than 2 engine threads busy.
# Threads 2 games run one at a time (only the side to move thinks); a
# pondering engine keeps a core busy while the other thinks, so ponder games
# use Threads 1, one game at a time.
set -u
OUT=$1
FAST=${2:-1000}
SLOW=${3:-400}
STALL=${4:-100}
STALL_MS=${5:-300}
STALL_RATE=${6:-0.1}
ENGINE=${ENGINE:-target/release/cutoff}
SEED_BASE=${SEED_BASE:-0}
TOOLS=$(dirname "$0")
. "$TOOLS/match_conditions.sh"
RUNS=6
mkdir -p "$OUT"
RUNNER=$(fastchess_runner) || exit 1
for f in "$ENGINE" /usr/games/toga2 /usr/games/glaurung "$OPENINGS"; do
  [ -e "$f" ] || { echo "missing: $f" >&2; exit 1; }
done
TOGA="name=toga2 cmd=/usr/games/toga2 option.OwnBook=false option.Hash=16"
GLAURUNG="name=glaurung cmd=/usr/games/glaurung option.OwnBook=false option.Hash=16 option.Threads=1"

per_run() { n=$((($1 + RUNS - 1) / RUNS)); echo $((n + n % 2)); }

# plain NAME TC GAMES CONCURRENCY THREADS HASH OPPONENT|self: fastchess,
# whole games (no adjudication), a move may overrun its clock by 50 ms; then
# match_check.sh writes a `Forfeits:` line into the log for every game of
# this run lost by a time forfeit, an illegal move or a crash, and an
# `error:` line if fastchess stopped early (it stops at a crash).
plain() {
  opp=$7
  [ "$opp" = self ] && opp="name=cutoff-2 cmd=$ENGINE option.Threads=$5 option.Hash=$6"
  echo "== $1: fastchess, $2, $3 games, concurrency $4, Threads $5, Hash $6"
  before=$(grep -c '^\[Event ' "$OUT/$1.pgn" 2>/dev/null) || before=0
  # shellcheck disable=SC2086 # $opp is a list of key=value words
  "$RUNNER" -engine name=cutoff cmd="$ENGINE" option.Threads="$5" option.Hash="$6" \
    -engine $opp -each tc="$2" timemargin=50 -rounds "$(rounds "$3")" -repeat \
    -concurrency "$4" -openings file="$OPENINGS" format=epd order=random -srand "$SEED" \
    -pgnout file="$OUT/$1.pgn" -config outname="$OUT/$1.fastchess.json" >"$OUT/$1.log" 2>&1
  status=$?
  [ "$status" -eq 0 ] || echo "error: fastchess exit status $status" >>"$OUT/$1.log"
  "$TOOLS/match_check.sh" "$OUT/$1.pgn" "$3" . "$before" >>"$OUT/$1.log"
  grep -E "^(Forfeits|error|warning|Warning)" "$OUT/$1.log"
}

# ponder NAME TC GAMES HASH [soak.py arguments]: soak.py, Threads 1, one game at a time
ponder() {
  name=$1 tc=$2 games=$3 hash=$4
  shift 4
  echo "== $name: soak.py, $tc, $games games, Threads 1, Hash $hash, $*"
  python3 "$TOOLS/soak.py" --engine "$ENGINE" --engine-option Threads=1 \
    --engine-option Hash="$hash" --tc "$tc" --games "$games" --seed "$SEED" \
    --pgn "$OUT/$name.pgn" "$@" >"$OUT/$name.log" 2>&1
  echo "soak.py exit status $?" >>"$OUT/$name.log"
  grep -E "^FAIL|failures$" "$OUT/$name.log" | tail -5
}

matrix() {  # matrix TAG TC GAMES_PER_RUN
  [ "$3" -gt 0 ] || return 0
  SEED=$((SEED_BASE + 1)); plain "$1-self-t1-h1" "$2" "$3" 2 1 1 self
  SEED=$((SEED_BASE + 2)); plain "$1-self-t2-h256" "$2" "$3" 1 2 256 self
  SEED=$((SEED_BASE + 3)); plain "$1-toga2-t1-h256" "$2" "$3" 2 1 256 "$TOGA"
  SEED=$((SEED_BASE + 4)); plain "$1-glaurung-t2-h1" "$2" "$3" 1 2 1 "$GLAURUNG"
  SEED=$((SEED_BASE + 5)); ponder "$1-ponder-self-h1" "$2" "$3" 1 --ponder both --opponent-option Threads=1 \
    --opponent-option Hash=1
  SEED=$((SEED_BASE + 6)); ponder "$1-ponder-toga2-h256" "$2" "$3" 256 --ponder engine \
    --opponent /usr/games/toga2 --opponent-name toga2 --opponent-option OwnBook=false \
    --opponent-option Hash=16
}

matrix fast 1+0.01 "$(per_run "$FAST")"
matrix slow 10+0.1 "$(per_run "$SLOW")"
if [ "$STALL" -gt 0 ]; then
  SEED=$((SEED_BASE + 7)); ponder stall "5+0.05" "$STALL" 16 --stall "$STALL_MS" --stall-rate "$STALL_RATE" \
    --opponent-option Threads=1 --opponent-option Hash=16
fi

# Summary: every PGN's terminations (all "normal" or "adjudication" when
# nothing failed) and smallest clocks, then soak.py's own counts, which also
# cover warnings and notation problems that end no game.
ZERO="crash 0, hang 0, illegal move 0, time loss 0, warning 0, notation 0;"
{
  echo "== terminations and smallest clock left (ms) per PGN"
  python3 "$TOOLS/soak.py" --summary "$OUT"/*.pgn
  echo "== soak.py counts"
  grep -H -E ": crash [0-9]|failures$" "$OUT"/*.log
  echo "== fastchess forfeits, errors and warnings"
  grep -H -E "^(Forfeits|error|warning|Warning)" "$OUT"/*.log || echo "none"
} | tee "$OUT/summary.txt"
# Cutoff's failures only (its engines are named cutoff*); the opponents'
# are listed above. The stall run is a measurement, reported above.
fails=$( (grep -H -E "^Forfeits: (cutoff|\?)|^(error|warning)|^Warning.*cutoff" "$OUT"/*.log
  grep -H -E "^(cutoff[^:]*|python-chess|soak.py): crash" "$OUT"/*.log | grep -v "$ZERO") |
  grep -v "^$OUT/stall.log")
if [ -n "$fails" ]; then
  printf 'FAILED:\n%s\n' "$fails" | tee -a "$OUT/summary.txt"
  exit 1
fi
echo "PASSED: Cutoff had no crash, hang, illegal move, time loss, warning or notation problem" |
  tee -a "$OUT/summary.txt"
