#!/usr/bin/env bash
# Plays self-play chunks into data/selfplay/ and commits each as it finishes:
# one `cutoff datagen` run per chunk (its own seed), compressed with xz, a
# manifest line (data/selfplay/manifest.tsv), one commit. Stop it at any
# time: a chunk cut short resumes where it stopped when the script runs again.
#
#   tools/datagen_chunks.sh BINARY FIRST_SEED COUNT [GAMES_PER_CHUNK]
#   tools/datagen_chunks.sh --totals   (only the README's totals line)
#
# The corpus grows with every search cut at 2,000 nodes (docs/nnue.md):
#   GENERATION=11 SOFT_NODES=2000 HARD_NODES=2000 tools/datagen_chunks.sh BIN 11110 20 2000
#
# BINARY is a release build of a committed main (its commit is recorded:
# build it from a clean tree); chunks are named g<generation>-s<seed>, or
# g<generation>-n<soft>-s<seed> when SOFT_NODES is set (-n<soft>h<hard>
# when HARD_NODES is set too). SOFT_NODES and
# HARD_NODES (default 25 times SOFT_NODES) set the per-move node limits;
# the manifest records them in the command and the chunk's CPU seconds
# (user + system of the datagen run) in `cpu_s`.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=data/selfplay/manifest.tsv
readme=data/selfplay/README.md

# write_totals: the line of data/selfplay/README.md that starts "On DATE the
# corpus is", rewritten from the manifest's sums (600 MB is the budget; the
# room left is counted in positions at the newest chunk's bytes a position,
# the format datagen writes now).
write_totals() {
    local line
    line=$(awk -F'\t' -v day="$(date -u +%F)" '
        function group(n,   s, out) {
            s = sprintf("%.0f", n)
            while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
            return s out
        }
        NR > 1 { c++; g += $2; p += $3; k += $4; b += $5; last = $5 / $3 }
        END {
            mb = b / 1e6; per = b / p; left = 600 - mb
            printf "On %s the corpus is %d chunks, %s games, %s stored positions (%s kept by the default filter) in %.1f MB, %.2f bytes a position (the newest chunk %.2f): about %d MB of the budget, some %d million more positions at the newest chunk'"'"'s rate, are left.", \
                day, c, group(g), group(p), group(k), mb, per, last, left, left / last
        }' "$manifest")
    awk -v line="$line" '/^On .* the corpus is / { print line; next } { print }' "$readme" > "$readme.tmp"
    mv "$readme.tmp" "$readme"
}
if [ "${1:-}" = --totals ]; then
    write_totals
    exit 0
fi
bin=$1; first=$2; count=$3; games=${4:-5000}
gen=${GENERATION:-4}
soft=${SOFT_NODES:-}
hard=${HARD_NODES:-$(( ${soft:-2000} * 25 ))}
nodes=(); tag=
if [ -n "$soft" ]; then nodes=(--soft-nodes "$soft" --hard-nodes "$hard"); tag=-n$soft; fi
if [ -n "$soft" ] && [ -n "${HARD_NODES:-}" ]; then tag=${tag}h$hard; fi
commit=$(git rev-parse --short HEAD)
commit=${DATAGEN_COMMIT:-$commit}
# The network embedded at the recorded commit, the one BINARY plays with (the
# working tree's may be newer).
net=$(git show "$commit:crates/engine/src/eval/nnue/default.nnue" | sha256sum | cut -c1-12)
mkdir -p data/selfplay
[ -f "$manifest" ] || printf 'file\tgames\tpositions\tkept\tbytes\tsha256\tcommit\tnetwork\tcommand\tcpu_s\n' > "$manifest"
# snapshot_cpu PID FILE: while PID runs, its user and system CPU seconds
# (fields 14 and 15 of /proc/PID/stat, in clock ticks; counted after the
# command name's closing parenthesis, as the name may hold spaces) written
# to FILE every 30 s, as /usr/bin/time writes them.
snapshot_cpu() {
    local pid=$1 out=$2 tick
    tick=$(getconf CLK_TCK)
    [ -n "$pid" ] || return 0
    while [ -r "/proc/$pid/stat" ]; do
        awk -v t="$tick" '{ sub(/^.*\) /, ""); printf "%.2f %.2f\n", $12 / t, $13 / t }' "/proc/$pid/stat" \
            > "$out.tmp" 2> /dev/null && mv "$out.tmp" "$out"
        sleep 30
    done
    rm -f "$out.tmp"
}

for ((seed = first; seed < first + count; seed++)); do
    name=g$gen$tag-s$seed.games
    [ -f "data/selfplay/$name.xz" ] && continue
    cmd="cutoff datagen --out $name --games $games --seed $seed${nodes:+ ${nodes[*]}} --threads 2"
    # CPU time, summed over the runs of a resumed chunk: each run appends a
    # line when it ends (stop one with SIGTERM to the datagen process), and
    # a run killed outright (the end of a machine's session) is counted to
    # its last snapshot, taken every 30 s.
    time_file=data/selfplay/$name.time
    if [ -f "$time_file.partial" ]; then
        cat "$time_file.partial" >> "$time_file"
        rm -f "$time_file.partial"
    fi
    /usr/bin/time -a -o "$time_file" -f '%U %S' nice -n 19 "$bin" datagen \
        --out "data/selfplay/$name" --games "$games" --seed "$seed" "${nodes[@]}" --threads 2 &
    timer=$!
    sleep 1
    snapshot_cpu "$(pgrep -P "$timer" | head -n 1)" "$time_file.partial" &
    status=0
    wait "$timer" || status=$?
    rm -f "$time_file.partial"
    [ "$status" -eq 0 ] || exit "$status"
    cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { t += $1 + $2 } END { printf "%.0f", t }' "$time_file")
    rm -f "$time_file"
    xz -9 -T1 "data/selfplay/$name"
    stats=$("$bin" games --tsv "data/selfplay/$name.xz" | tail -n 1 | cut -f2-4)
    bytes=$(stat -c %s "data/selfplay/$name.xz")
    sha=$(sha256sum "data/selfplay/$name.xz" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\tnet %s (%s)\t%s\t%s\n' "$name.xz" "$stats" "$bytes" "$sha" \
        "$commit" "$gen" "$net" "$cmd" "$cpu" >> "$manifest"
    write_totals
    for try in 1 2 3 4 5; do
        git add "data/selfplay/$name.xz" "$manifest" "$readme" &&
            git commit -q -m "data: self-play chunk $name.xz (games, positions, kept: ${stats//$'\t'/, })" -- "data/selfplay/$name.xz" "$manifest" "$readme" && break
        sleep 5
    done
done
