#!/usr/bin/env bash
# Datagen's cost per position, two builds side by side on the same seeds:
# for each seed, `cutoff datagen --games GAMES --seed S --threads 1` by
# BEFORE and by AFTER (AFTER_ARGS added to AFTER's command, e.g.
# "--hard-nodes 2000"), one after the other, each pinned to CORE. Prints a
# line per run (build, seed, CPU seconds as user + system, stored and kept
# positions), whether the two files are the same bytes, and the totals and
# the median of the seeds' ratios of stored positions per CPU second.
#
#   tools/datagen_cost.sh BEFORE AFTER [FIRST_SEED] [SEEDS] [GAMES]
#   e.g. AFTER_ARGS="--hard-nodes 2000" tools/datagen_cost.sh old/cutoff target/release/cutoff 7701 5 100
#
# CORE (default 0) is the core both run on; keep other work off it.
set -euo pipefail
before=$1; after=$2; first=${3:-7701}; seeds=${4:-5}; games=${5:-100}
core=${CORE:-0}
read -r -a after_args <<< "${AFTER_ARGS:-}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# run NAME BINARY SEED [ARGS...]: one datagen run; prints its line.
run() {
    local name=$1 bin=$2 seed=$3
    shift 3
    /usr/bin/time -o "$dir/$name.time" -f '%U %S' taskset -c "$core" "$bin" datagen \
        --out "$dir/$name.games" --games "$games" --seed "$seed" --threads 1 "$@" > /dev/null 2>&1
    local cpu counts
    cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/$name.time")
    counts=$("$after" games --tsv "$dir/$name.games" | tail -n 1 | cut -f3,4)
    printf '%s\t%s\t%s\t%s\n' "${name%%-*}" "$seed" "$cpu" "$counts"
}

{
    for ((seed = first; seed < first + seeds; seed++)); do
        run "before-$seed" "$before" "$seed"
        run "after-$seed" "$after" "$seed" "${after_args[@]}"
        if cmp -s "$dir/before-$seed.games" "$dir/after-$seed.games"; then
            echo "# seed $seed: the same bytes"
        else
            echo "# seed $seed: different games"
        fi
    done
} | tee "$dir/runs.tsv"
awk -F'\t' '
    /^#/ { next }
    { cpu[$1] += $3; stored[$1] += $4; kept[$1] += $5; rate[$1, $2] = $4 / $3; seeds[$2] = 1 }
    END {
        for (b in cpu)
            printf "%s: %.1f CPU s, %d stored (%.0f a CPU s), %d kept (%.0f a CPU s)\n",
                b, cpu[b], stored[b], stored[b] / cpu[b], kept[b], kept[b] / cpu[b]
        n = 0
        for (s in seeds) r[++n] = rate["after", s] / rate["before", s]
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
        median = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
        printf "after / before, stored positions a CPU second: seeds %.2f to %.2f, median %.2f\n", r[1], r[n], median
    }' "$dir/runs.tsv"
