#!/usr/bin/env bash
# Acceptance run of the move generator, as one job:
#  1. `cutoff perft 6` against Stockfish's `go perft 6`, alternating, median times;
#  2. every perft file: each listed depth up to 5, all depths for the six
#     standard positions and for special_cases (some of its lines list only
#     D6..D8), Chess960 files with --chess960.
# Usage: tools/perft_acceptance.sh [CUTOFF_BINARY] [PERFT_DATA_DIR] [REPS]
# PERFT_DATA_DIR (default tests/data/perft, the repository's subsets) holds
# the suite files; the acceptance run proper uses the full suites listed in
# tests/data/perft/README.md (cpw_standard6.epd, standard.epd, fischer.epd,
# random_marcel.epd, ferdy_*.epd, ...), given as a folder of their own.
# Heavy (about 2*10^11 nodes with the full suites): run it alone, not next
# to other CPU work.
set -euo pipefail
BIN=${1:-target/release/cutoff}
DATA=${2:-tests/data/perft}
REPS=${3:-5}
SF=${STOCKFISH:-/usr/games/stockfish}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }

echo "== perft 6 from the start position, $REPS alternating runs each"
cut_times=() sf_times=()
for _ in $(seq "$REPS"); do
    t0=$(now); "$BIN" perft 6 | grep -q "Nodes searched: 119060324"; t1=$(now)
    cut_times+=("$(echo "$t1 - $t0" | bc -l)")
    if [ -x "$SF" ]; then
        t0=$(now)
        printf 'go perft 6\nisready\n' | "$SF" | grep -q "Nodes searched: 119060324"
        t1=$(now)
        sf_times+=("$(echo "$t1 - $t0" | bc -l)")
    fi
done
cm=$(printf '%s\n' "${cut_times[@]}" | median)
echo "cutoff    perft 6: runs ${cut_times[*]} -> median $cm s (process wall time)"
if [ ${#sf_times[@]} -gt 0 ]; then
    sm=$(printf '%s\n' "${sf_times[@]}" | median)
    echo "stockfish perft 6: runs ${sf_times[*]} -> median $sm s (process wall time)"
    echo "speed-up: $(echo "$sm / $cm" | bc -l | cut -c1-5)x"
else
    echo "stockfish not found at $SF: comparison skipped"
fi

echo "== perft suites in $DATA"
start=$(now)
status=0
for f in "$DATA"/*.epd; do
    args=(--max-depth 5)
    case $(basename "$f") in
        cpw_standard6.epd | standard6.epd | special_cases.epd) args=() ;;
    esac
    case $(basename "$f") in
        fischer*.epd | chess960*.epd) args+=(--chess960) ;;
    esac
    "$BIN" perft --epd "$f" "${args[@]}" | grep -v '^Nodes searched' || status=1
done
echo "== all suites: $(echo "$(now) - $start" | bc -l | cut -c1-7) s, exit status $status"
exit $status
