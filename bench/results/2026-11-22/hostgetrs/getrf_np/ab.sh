#!/bin/sh
# getrf without pivoting (ipiv NULL) at n = 10..48 against the peers, one thread, both sides
# of GETRF_NP_SMALL_MAX alternated in one session (same binary):
#   vendor = KOBALT_OPENMP_GETRF_NP_SMALL_MAX=8  (the default: the blocked loop on CBLAS above 8)
#   small  = KOBALT_OPENMP_GETRF_NP_SMALL_MAX=48 (KokkosBatched SerialLU on strided views)
#   bench/results/2026-11-22/hostgetrs/getrf_np/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,12,16,20,24,32,40,48}
REPS=${REPS:-2}
run() { # tag threshold kobalt-bench options...
    tag=$1; v=$2; shift 2
    echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag" >> "$OUT/load.txt"
    KOBALT_OPENMP_GETRF_NP_SMALL_MAX=$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE \
        "$B/bin/kobalt-bench" --routines getrf_np --prec d,s --sizes "$SIZES" --reps 5 \
        --peers blas,kokkos "$@" --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
}
for rep in $(seq 1 $REPS); do
    for arm in vendor small; do
        if [ $arm = vendor ]; then v=8; else v=48; fi
        run colN-mem-$arm-$rep $v --mb 64
        run rowN-mem-$arm-$rep $v --mb 64 --layout row
        run colN-l3-$arm-$rep $v --mb 8
        run rowN-l3-$arm-$rep $v --mb 8 --layout row
    done
done
