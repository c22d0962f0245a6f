#!/usr/bin/env bash
# Issue 65's headline table in one sitting: adaptive against fixed and the oracle on the production model, on every
# shape the issue sets a target on, each 5 timed rounds interleaved after 1 warm-up round; with a second jar, that jar
# (the build before) runs each shape just before this one does, so that both builds meet the machine alike.
#
#   bench/scripts/headline-sitting.sh OUT_PREFIX AFTER_JAR [BEFORE_JAR]
#
# CASES="filtered 200000;mixed 10000" runs those cases only (";"-separated "SHAPE N"), in that order, and
# STRATEGIES=adaptive,oracle those strategies only (default fixed,adaptive,oracle).
#
# Each sitting is saved to OUT_PREFIX-{after,before}-SHAPE-N.json and its table to the same name with .txt. A jar from
# before --warmup-rounds existed runs --repeat 6 (the same rounds in the same rotated orders), and AFTER_JAR re-prints
# its file with the first round taken as the warm-up round (bench --from-json FILE --warmup-rounds 1), so that both
# tables are made alike.
set -euo pipefail
if [[ $# -lt 2 ]]; then
    echo "usage: $0 OUT_PREFIX AFTER_JAR [BEFORE_JAR]" >&2
    exit 2
fi
prefix=$1
after=$2
before=${3:-}
sitting() { # JAR NAME SHAPE N ROUNDS...
    local jar=$1 name=$2 shape=$3 entities=$4
    shift 4
    java -jar "$jar" bench --server model --shape "$shape" --entities "$entities" --workers 64 --latency-ms 20 \
        --warmup 20000 --strategies "${STRATEGIES:-fixed,adaptive,oracle}" "$@" --json "$prefix-$name-$shape-$entities.json"
}
before_rounds=(--repeat 5 --warmup-rounds 1)
if [[ -n $before && $(java -jar "$before" bench --help) != *--warmup-rounds* ]]; then
    before_rounds=(--repeat 6)
fi
IFS=';' read -r -a cases <<< "${CASES:-mixed 10000;sparse-scatter 10000;mixed 100000;filtered 200000;mixed 1000000}"
for case in "${cases[@]}"; do
    read -r shape entities <<< "$case"
    if [[ -n $before ]]; then
        sitting "$before" before "$shape" "$entities" "${before_rounds[@]}"
        java -jar "$after" bench --from-json "$prefix-before-$shape-$entities.json" --warmup-rounds 1 \
            > "$prefix-before-$shape-$entities.txt"
    fi
    sitting "$after" after "$shape" "$entities" --repeat 5 --warmup-rounds 1 | tee "$prefix-after-$shape-$entities.txt"
done
