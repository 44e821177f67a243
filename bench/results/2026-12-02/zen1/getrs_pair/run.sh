#!/usr/bin/env bash
# run.sh BUILD OUTDIR ROUNDS -- getrs nrhs = 1 at n = 2..6 on the in-place solve: two items a
# body up to n = 6 (P6, the old default), up to 4 (P4), never (P0), and the fixed-n solve
# (FIX, GETRS_TINY_MAX = 0); d and s, both layouts, from memory (--mb 32, 4x this VM's 8 MiB
# LLC), 2 OpenMP threads, Eigen as the peer; the configurations alternate within each round.
set -u
B=$1 O=$2 R=${3:-2}
mkdir -p "$O"
declare -A cfg=([P6]="" [P4]="KOBALT_OPENMP_GETRS_TINY_PAIR_MAX=4 KOBALT_OPENMP_GETRS_TINY_PAIR_MAX_FLOAT=4"
    [P0]="KOBALT_OPENMP_GETRS_TINY_PAIR_MAX=0 KOBALT_OPENMP_GETRS_TINY_PAIR_MAX_FLOAT=0"
    [FIX]="KOBALT_OPENMP_GETRS_TINY_MAX=0")
for r in $(seq "$R"); do
    for layout in col row; do
        for c in P6 P4 P0 FIX; do
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            env ${cfg[$c]} OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines getrs --prec d,s \
                --sizes 2,3,4,5,6 --reps 7 --mb ${MB:-32} --peers eigen --layout $layout 2>/dev/null
        done
    done
done >"$O/ab.txt"
