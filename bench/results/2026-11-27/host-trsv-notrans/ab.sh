#!/bin/sh
# A/B of trsv at n = 10..256 (branch hosttrsv), one binary, alternated through the env
# thresholds, one OpenMP thread, from memory (--mb 64), lower triangle, NonUnit
# (a copy of ../host-trsv-direct/ab.sh). The arms are given in ARMS: NAME=ENV[,ENV...], e.g.
#   old = KOBALT_OPENMP_TRSV_INPLACE_MAX=0,KOBALT_OPENMP_TRSV_COL_SWEEP_MIN=1000000,
#         KOBALT_OPENMP_TRSV_ROW_SWEEP_MAX=0,KOBALT_OPENMP_TRSV_PREFETCH_NEXT_MIN=1000000
#         (the session-14 kernels, main's code path), new = the defaults; the exploration
#   runs used KOBALT_TRSV_VARIANT of an uncommitted build (README.md).
# CFGS / SIZES / REPS / PEERS override the lists.
# colN / rowN: op(A) = L; colT / rowT: op(A) = L^T. The load average is logged before each
# invocation.
#   bench/results/2026-11-27/host-trsv-notrans/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,12,16,24,32,48,64,96,128,256}
REPS=${REPS:-3}
PEERS=${PEERS:-blas,kokkos,eigen}
ARMS=${ARMS:-"old=KOBALT_OPENMP_TRSV_DIRECT_MAX=0 new="}
CFGS=${CFGS:-"colN rowN colT rowT"}
mkdir -p "$OUT"
for rep in $(seq 1 $REPS); do
    for arm in $ARMS; do
        name=${arm%%=*}; envs=$(echo "${arm#*=}" | tr ',' ' ')
        for cfg in $CFGS; do
            case $cfg in
                colN) opt="";;
                rowN) opt="--layout row";;
                colT) opt="--trans T";;
                rowT) opt="--layout row --trans T";;
            esac
            tag=$cfg-mem-$name-$rep
            echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag $envs" >> "$OUT/load.txt"
            env $envs OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" \
                --routines trsv --prec d,s --sizes "$SIZES" --reps 5 --mb 64 --peers "$PEERS" \
                $opt --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
        done
    done
done
