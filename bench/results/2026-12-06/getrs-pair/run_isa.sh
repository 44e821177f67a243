#!/usr/bin/env bash
# run_isa.sh BUILD OLD_PLUGIN_DIR OUTDIR ROUNDS [SIZES] -- getrs nrhs = 1 on the in-place
# solve (getrs_tiny.cpp): the AVX2 copy (OLD: the plugin saved before getrs_tiny.cpp got an
# AVX-512 copy) against the AVX-512 copy (NEW: BUILD/lib), each with two items a body up to
# n = 4 (P4, the default) and up to 6 (P6); d and s, both layouts, --mb ${MB:-64} an operand,
# 2 OpenMP threads, passive waits, Eigen as the peer; the configurations alternate in each round.
set -u
B=$1 OLD=$2 O=$3 R=${4:-3} S=${5:-2,3,4,5,6,7,8}
mkdir -p "$O"
P6="KOBALT_OPENMP_GETRS_TINY_PAIR_MAX=6 KOBALT_OPENMP_GETRS_TINY_PAIR_MAX_FLOAT=6"
for r in $(seq "$R"); do
    for layout in col row; do
        for c in OLD-P4 NEW-P4 OLD-P6 NEW-P6; do
            case $c in OLD*) p=$OLD ;; *) p=$B/lib ;; esac
            case $c in *P6) e=$P6 ;; *) e= ;; esac
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            env $e KOBALT_PLUGIN_PATH=$p OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines getrs \
                --prec d,s --sizes "$S" --reps 7 --mb ${MB:-64} --peers eigen --layout $layout 2>/dev/null
        done
    done
done >"$O/ab.txt"
