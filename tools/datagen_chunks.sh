#!/usr/bin/env bash
# Plays self-play chunks into data/selfplay/ and commits each as it finishes:
# one `cutoff datagen` run per chunk (its own seed), compressed with xz, a
# manifest line (data/selfplay/manifest.tsv), one commit. Stop it at any
# time: a chunk cut short resumes where it stopped when the script runs again.
#
#   tools/datagen_chunks.sh BINARY FIRST_SEED COUNT [GAMES_PER_CHUNK]
#
# BINARY is a release build of a committed main (its commit is recorded:
# build it from a clean tree); chunks are named g<generation>-s<seed>, or
# g<generation>-n<soft>-s<seed> when SOFT_NODES is set. SOFT_NODES and
# HARD_NODES (default 25 times SOFT_NODES) set the per-move node limits;
# the manifest records them in the command and the chunk's CPU seconds
# (user + system of the datagen run) in `cpu_s`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1; first=$2; count=$3; games=${4:-5000}
gen=${GENERATION:-4}
soft=${SOFT_NODES:-}
hard=${HARD_NODES:-$(( ${soft:-2000} * 25 ))}
nodes=(); tag=
if [ -n "$soft" ]; then nodes=(--soft-nodes "$soft" --hard-nodes "$hard"); tag=-n$soft; fi
commit=$(git rev-parse --short HEAD)
commit=${DATAGEN_COMMIT:-$commit}
net=$(sha256sum crates/engine/src/eval/nnue/default.nnue | cut -c1-12)
manifest=data/selfplay/manifest.tsv
mkdir -p data/selfplay
[ -f "$manifest" ] || printf 'file\tgames\tpositions\tkept\tbytes\tsha256\tcommit\tnetwork\tcommand\tcpu_s\n' > "$manifest"
for ((seed = first; seed < first + count; seed++)); do
    name=g$gen$tag-s$seed.games
    [ -f "data/selfplay/$name.xz" ] && continue
    cmd="cutoff datagen --out $name --games $games --seed $seed${nodes:+ ${nodes[*]}} --threads 2"
    # CPU time, summed over the runs of a resumed chunk (each appends a
    # line; stop a run with SIGTERM to the datagen process so it is written).
    /usr/bin/time -a -o "data/selfplay/$name.time" -f '%U %S' nice -n 19 "$bin" datagen \
        --out "data/selfplay/$name" --games "$games" --seed "$seed" "${nodes[@]}" --threads 2
    cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { t += $1 + $2 } END { printf "%.0f", t }' "data/selfplay/$name.time")
    rm -f "data/selfplay/$name.time"
    xz -9 -T1 "data/selfplay/$name"
    stats=$("$bin" games --tsv "data/selfplay/$name.xz" | tail -n 1 | cut -f2-4)
    bytes=$(stat -c %s "data/selfplay/$name.xz")
    sha=$(sha256sum "data/selfplay/$name.xz" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\tnet %s (%s)\t%s\t%s\n' "$name.xz" "$stats" "$bytes" "$sha" \
        "$commit" "$gen" "$net" "$cmd" "$cpu" >> "$manifest"
    for try in 1 2 3 4 5; do
        git add "data/selfplay/$name.xz" "$manifest" &&
            git commit -q -m "data: self-play chunk $name.xz (games, positions, kept: ${stats//$'\t'/, })" -- "data/selfplay/$name.xz" "$manifest" && break
        sleep 5
    done
done
