#!/usr/bin/env bash
# run.sh BUILD OLD_PLUGIN_DIR OUTDIR ROUNDS [SIZES] [ROUTINES] -- the same kobalt-bench
# binary against two builds of the openmp plugin (OLD: the plugin saved in OLD_PLUGIN_DIR
# before the change, NEW: BUILD/lib), alternated within each round, both layouts, d and s,
# 2 OpenMP threads, passive waits, KokkosBatched and Eigen as peers (PEERS=... others); TRANS=T: --trans T.
set -u
B=$1 OLD=$2 O=$3 R=${4:-3} S=${5:-9,10,11,12,13,14,15,16} RT=${6:-getrs}
mkdir -p "$O"
for r in $(seq "$R"); do
    for layout in col row; do
        for c in OLD NEW; do
            if [ $c = OLD ]; then p=$OLD; else p=$B/lib; fi
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            KOBALT_PLUGIN_PATH=$p OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines "$RT" \
                --prec d,s --sizes "$S" --reps 7 --mb ${MB:-32} --peers ${PEERS:-kokkos,eigen} --layout $layout ${TRANS:+--trans $TRANS} 2>/dev/null
        done
    done
done >"$O/ab.txt"
