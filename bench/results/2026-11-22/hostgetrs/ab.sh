#!/bin/sh
# A/B of getrs's direct solve with the streamed factor (branch hostgetrs), one thread,
# alternating in one session, same binary (the exploration build, which still read
# KOBALT_GETRS_VARIANT: 0 = the kernel of main, 7 = the committed kernel, whole rows/columns
# of the next four-block prefetched during the first triangle):
#   old = KOBALT_GETRS_VARIANT=0 KOBALT_OPENMP_GETRS_DIRECT_MAX=32  (main: vendor trsv pair above 32)
#   new = KOBALT_GETRS_VARIANT=7 KOBALT_OPENMP_GETRS_DIRECT_MAX=256 (the direct solve at n = 9..256)
# The load average is logged before each invocation.
#   bench/results/2026-11-22/hostgetrs/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,16,24,32,40,48,56,64,96,128,256}
REPS=${REPS:-2}
run() { # tag variant threshold kobalt-bench options...
    tag=$1; var=$2; v=$3; shift 3
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
    KOBALT_GETRS_VARIANT=$var KOBALT_OPENMP_GETRS_DIRECT_MAX=$v OMP_NUM_THREADS=1 \
        OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines getrs --prec d,s \
        --sizes "$SIZES" --reps 5 --peers blas,kokkos "$@" \
        --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
}
for rep in $(seq 1 $REPS); do
    for arm in old new; do
        if [ $arm = old ]; then var=0; v=32; else var=7; v=256; fi
        run colN-mem-$arm-$rep $var $v --mb 64
        run rowN-mem-$arm-$rep $var $v --mb 64 --layout row
        run colT-mem-$arm-$rep $var $v --mb 64 --trans T
        run rowT-mem-$arm-$rep $var $v --mb 64 --layout row --trans T
        run colN-l3-$arm-$rep $var $v --mb 8
        run rowN-l3-$arm-$rep $var $v --mb 8 --layout row
        run colT-l3-$arm-$rep $var $v --mb 8 --trans T
        run rowT-l3-$arm-$rep $var $v --mb 8 --layout row --trans T
    done
done
