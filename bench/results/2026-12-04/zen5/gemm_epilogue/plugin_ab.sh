#!/usr/bin/env bash
# plugin_ab.sh BUILD OLD_PLUGIN_DIR NEW_PLUGIN_DIR OUTFILE ROUNDS -- one kobalt-bench binary
# against two builds of the openmp plugin (KOBALT_PLUGIN_PATH), alternated within each round,
# gemm, d and s, both layouts, 2 OpenMP threads, passive waits, libxsmm as the peer.
# MB: data per operand (default 32); SIZES (default 9 ... 96).
set -u
B=$1 OLD=$2 NEW=$3 OUT=$4 R=${5:-3}
S=${SIZES:-9,10,12,13,16,17,20,24,32,48,64,96}
for r in $(seq "$R"); do
    for layout in col row; do
        for c in OLD NEW; do
            if [ $c = OLD ]; then p=$OLD; else p=$NEW; fi
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            KOBALT_PLUGIN_PATH=$p OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines gemm \
                --prec d,s --sizes "$S" --reps 9 --mb ${MB:-32} --peers xsmm --layout $layout 2>/dev/null
        done
    done
done >"$OUT"
