#!/usr/bin/env bash
# env_ab.sh BUILD OUTDIR ROUNDS SIZES ROUTINES OLD_ENV [NEW_ENV] -- plugin_ab.sh's rounds (bench/results/
# 2026-12-03/spr/plugin_ab.sh) on one build, OLD being the same plugin with OLD_ENV set (e.g.
# KOBALT_GETRF_DIRECT_MAX=0: the path before the change; several assignments separated by
# spaces), NEW the defaults or NEW_ENV; both layouts, d and
# s, 2 OpenMP threads, passive waits; PEERS (default blas,eigen), MB (default 64) as there.
set -u
B=$1 O=$2 R=$3 S=$4 RT=$5 OLD_ENV=$6 NEW_ENV=${7:-KOBALT_VERBOSE=0}
mkdir -p "$O"
for r in $(seq "$R"); do
    for layout in col row; do
        for c in OLD NEW; do
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            if [ $c = OLD ]; then e=$OLD_ENV; else e=$NEW_ENV; fi
            env $e OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines "$RT" \
                --prec d,s --sizes "$S" --reps 7 --mb ${MB:-64} --peers ${PEERS:-blas,eigen} --layout $layout 2>/dev/null
        done
    done
done >"$O/ab.txt"
