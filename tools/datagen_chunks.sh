#!/usr/bin/env bash
# Plays self-play chunks into data/selfplay/ and commits each as it finishes:
# one `cutoff datagen` run per chunk (its own seed), compressed with xz, a
# manifest line (data/selfplay/manifest.tsv), one commit. Stop it at any
# time: a chunk cut short resumes where it stopped when the script runs again.
#
#   tools/datagen_chunks.sh BINARY FIRST_SEED COUNT [GAMES_PER_CHUNK]
#
# BINARY is a release build of a committed main (its commit is recorded:
# build it from a clean tree); chunks are named g<generation>-s<seed>.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1; first=$2; count=$3; games=${4:-5000}
gen=${GENERATION:-4}
commit=$(git rev-parse --short HEAD)
commit=${DATAGEN_COMMIT:-$commit}
net=$(sha256sum src/eval/nnue/default.nnue | cut -c1-12)
manifest=data/selfplay/manifest.tsv
mkdir -p data/selfplay
[ -f "$manifest" ] || printf 'file\tgames\tpositions\tkept\tbytes\tsha256\tcommit\tnetwork\tcommand\n' > "$manifest"
for ((seed = first; seed < first + count; seed++)); do
    name=g$gen-s$seed.games
    [ -f "data/selfplay/$name.xz" ] && continue
    cmd="cutoff datagen --out $name --games $games --seed $seed --threads 2"
    nice -n 19 "$bin" datagen --out "data/selfplay/$name" --games "$games" --seed "$seed" --threads 2
    xz -9 -T1 "data/selfplay/$name"
    stats=$("$bin" games --tsv "data/selfplay/$name.xz" | tail -n 1 | cut -f2-4)
    bytes=$(stat -c %s "data/selfplay/$name.xz")
    sha=$(sha256sum "data/selfplay/$name.xz" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\tnet %s (%s)\t%s\n' "$name.xz" "$stats" "$bytes" "$sha" \
        "$commit" "$gen" "$net" "$cmd" >> "$manifest"
    for try in 1 2 3 4 5; do
        git add "data/selfplay/$name.xz" "$manifest" &&
            git commit -q -m "data: self-play chunk $name.xz (games, positions, kept: ${stats//$'\t'/, })" -- "data/selfplay/$name.xz" "$manifest" && break
        sleep 5
    done
done
