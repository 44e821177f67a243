#!/bin/sh
# A/B of getrs's direct solve (backends/openmp/getrs_direct.cpp), one thread, alternating in
# one session: old = KOBALT_OPENMP_GETRS_DIRECT_MAX=0 (the paths before it: KokkosBatched trsm
# pair up to GETRS_SMALL_MAX = 32, the vendor trsv pair above), new = 256 (the direct solve at
# every n = 9..256). The load average is logged before each invocation.
#   bench/results/2026-11-21/getrsmid/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,12,16,20,24,32,48,64,96,128,256}
run() { # tag value kobalt-bench options...
    tag=$1; v=$2; shift 2
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
    KOBALT_OPENMP_GETRS_DIRECT_MAX=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
        "$B/bin/kobalt-bench" --routines getrs --prec d,s --sizes "$SIZES" --reps 7 "$@" \
        --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
}
# column-major NoTrans (the bench's default): three alternations, from memory and in L3
for rep in 1 2 3; do
    for v in 0 256; do
        run colN-mem-$v-$rep $v --mb 64
        run colN-l3-$v-$rep $v --mb 8
    done
done
# the other layout and the transpose: two alternations each
for rep in 1 2; do
    for v in 0 256; do
        run rowN-mem-$v-$rep $v --mb 64 --layout row
        run colT-mem-$v-$rep $v --mb 64 --trans T
        run rowT-mem-$v-$rep $v --mb 64 --layout row --trans T
        run rowN-l3-$v-$rep $v --mb 8 --layout row
        run colT-l3-$v-$rep $v --mb 8 --trans T
        run rowT-l3-$v-$rep $v --mb 8 --layout row --trans T
    done
done
