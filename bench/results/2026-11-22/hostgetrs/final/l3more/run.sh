#!/bin/sh
# Three more alternations of the in-L3 configurations at n = 24 (identical code in both
# arms: the noise control), 128, 256, after the final A/B (../ab.sh) read wide ranges there.
B=${1:-build}
OUT=${2:-.}
for rep in 3 4 5; do
    for arm in old new; do
        if [ $arm = old ]; then dm=32; sm=1000000; else dm=256; sm=32; fi
        for cfg in "colN" "rowN --layout row" "colT --trans T" "rowT --layout row --trans T"; do
            set -- $cfg; tag=$1-l3-$arm-$rep; shift
            echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
            KOBALT_OPENMP_GETRS_DIRECT_MAX=$dm KOBALT_OPENMP_GETRS_STREAM_MIN=$sm OMP_NUM_THREADS=1 \
                OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines getrs --prec d,s \
                --sizes 24,128,256 --reps 5 --peers blas,kokkos --mb 8 "$@" --out "$OUT/$tag.csv" \
                > "$OUT/$tag.txt" 2>/dev/null
        done
    done
done
