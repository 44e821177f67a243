#!/bin/sh
# A/B of trsv at n = 10..256 (branch trsvdirect), one binary, alternated through the env
# thresholds, one OpenMP thread, from memory (--mb 64), lower triangle, NonUnit:
#   old = KOBALT_OPENMP_TRSV_DIRECT_MAX=0 (main's paths: KokkosBatched Blocked up to 32,
#         OpenBLAS above)
#   new = the defaults (the direct solve at n = 9..TRSV_DIRECT_MAX)
# ARMS / CFGS / SIZES / REPS / PEERS override the lists; an arm is NAME=ENV[,ENV...].
# colN / rowN: op(A) = L (lower_cols / lower_rows); colT / rowT: op(A) = L^T (upper_rows /
# upper_cols). The load average is logged before each invocation.
#   bench/results/2026-11-27/host-trsv-direct/ab.sh <build dir> <out dir>
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
