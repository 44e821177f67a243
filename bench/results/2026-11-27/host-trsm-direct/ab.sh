#!/bin/sh
# A/B of trsm at n = 10..64 (branch trsmdirect), one binary, alternated through the env
# thresholds, one OpenMP thread, left side, lower triangle, NoTrans, NonUnit, square
# (kobalt-bench's trsm case):
#   old = KOBALT_OPENMP_TRSM_DIRECT_MAX=0 (main's paths: KokkosBatched SerialTrsm up to
#         TRSM_SMALL_MAX = 48 (double) / TRSM_SMALL_MAX_FLOAT = 24, OpenBLAS above)
#   new = the defaults (the direct solve at max(m, n) = 9..TRSM_DIRECT_MAX)
# ARMS / CFGS / SIZES / REPS / PEERS / MB override the lists; an arm is NAME=ENV[,ENV...].
# col: column-major (B through the transposed local copy); row: row-major (B in place).
# MB = 64: from memory; MB = 2: in cache (the tag says mem or l2). The load average is
# logged before each invocation.
#   bench/results/2026-11-27/host-trsm-direct/ab.sh <build dir> <out dir>
B=${1:-build}
OUT=${2:-.}
SIZES=${SIZES:-10,12,16,20,24,32,48,64}
REPS=${REPS:-3}
MB=${MB:-64}
PEERS=${PEERS:-blas,kokkos,eigen}
ARMS=${ARMS:-"old=KOBALT_OPENMP_TRSM_DIRECT_MAX=0 new="}
CFGS=${CFGS:-"col row"}
where=mem
[ "$MB" -lt 16 ] && where=l2
mkdir -p "$OUT"
for rep in $(seq 1 $REPS); do
    for arm in $ARMS; do
        name=${arm%%=*}; envs=$(echo "${arm#*=}" | tr ',' ' ')
        for cfg in $CFGS; do
            case $cfg in
                col) opt="";;
                row) opt="--layout row";;
            esac
            tag=$cfg-$where-$name-$rep
            echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg) $tag $envs" >> "$OUT/load.txt"
            env $envs OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" \
                --routines trsm --prec d,s --sizes "$SIZES" --reps 5 --mb "$MB" --peers "$PEERS" \
                $opt --out "$OUT/$tag.csv" > "$OUT/$tag.txt" 2>/dev/null
        done
    done
done
