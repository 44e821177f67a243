#!/bin/sh
# Final A/B of getrs with one right-hand side at n >= 24 (branch hostgetrs), the committed
# binary, alternated in one session through the env thresholds, one thread:
#   old = KOBALT_OPENMP_GETRS_DIRECT_MAX=32 KOBALT_OPENMP_GETRS_STREAM_MIN=1000000 (main:
#         the direct solve without streaming up to 32, the vendor trsv pair above)
#   new = the defaults (GETRS_DIRECT_MAX = 256, GETRS_STREAM_MIN = 32)
# The load average is logged before each invocation.
#   bench/results/2026-11-22/hostgetrs/final/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-24,32,40,48,56,64,96,128,256}
REPS=${REPS:-2}
run() { # tag direct_max stream_min kobalt-bench options...
    tag=$1; dm=$2; sm=$3; shift 3
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
    KOBALT_OPENMP_GETRS_DIRECT_MAX=$dm KOBALT_OPENMP_GETRS_STREAM_MIN=$sm OMP_NUM_THREADS=1 \
        OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines getrs --prec d,s \
        --sizes "$SIZES" --reps 5 --peers blas,kokkos "$@" --out "$OUT/$tag.csv" \
        > "$OUT/$tag.txt" 2>/dev/null
}
for rep in $(seq 1 $REPS); do
    for arm in old new; do
        if [ $arm = old ]; then dm=32; sm=1000000; else dm=256; sm=32; fi
        for mb in 64 8; do
            if [ $mb = 64 ]; then w=mem; else w=l3; fi
            run colN-$w-$arm-$rep $dm $sm --mb $mb
            run rowN-$w-$arm-$rep $dm $sm --mb $mb --layout row
            run colT-$w-$arm-$rep $dm $sm --mb $mb --trans T
            run rowT-$w-$arm-$rep $dm $sm --mb $mb --layout row --trans T
        done
    done
done
