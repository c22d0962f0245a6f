#!/usr/bin/env bash
# Issue 65's headline table in one sitting: adaptive against fixed and the oracle on the production model, on every
# shape the issue sets a target on, one after another, each 5 timed rounds interleaved after 1 warm-up round.
#
#   bench/scripts/headline-sitting.sh JAR OUT_PREFIX [--before]
#
# JAR is a keyranger-bench.jar; each shape's sitting is saved to OUT_PREFIX-SHAPE-N.json. --before is for a jar built
# before --warmup-rounds existed: it runs --repeat 6 instead (the same rounds in the same rotated orders), and
#   java -jar NEW.jar bench --from-json OUT_PREFIX-SHAPE-N.json --warmup-rounds 1
# re-prints such a file with its first round taken as the warm-up round, as the new jar prints its own.
set -euo pipefail
if [[ $# -lt 2 ]]; then
    echo "usage: $0 JAR OUT_PREFIX [--before]" >&2
    exit 2
fi
jar=$1
prefix=$2
rounds=(--repeat 5 --warmup-rounds 1)
if [[ ${3:-} == --before ]]; then
    rounds=(--repeat 6)
fi
for sitting in "mixed 10000" "sparse-scatter 10000" "mixed 100000" "filtered 200000" "mixed 1000000"; do
    read -r shape entities <<< "$sitting"
    java -jar "$jar" bench --server model --shape "$shape" --entities "$entities" --workers 64 --latency-ms 20 \
        --warmup 20000 --strategies fixed,adaptive,oracle "${rounds[@]}" --json "$prefix-$shape-$entities.json"
done
