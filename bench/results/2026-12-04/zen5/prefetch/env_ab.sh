#!/usr/bin/env bash
# env_ab.sh BUILD OUTFILE ROUNDS -- one kobalt-bench and one plugin, the next-item prefetch of
# the small square semiring kernels off (KOBALT_GEMM_PREFETCH_MIN_BYTES huge) and on (the
# default, 16 MiB: every call here is larger), alternated within each round (OFF first in odd rounds, ON first in even ones); gemm, d and s,
# both layouts, 2 OpenMP threads, passive waits, libxsmm as the peer.
# MB: data per operand (default 64); SIZES (default 9 ... 32).
set -u
B=$1 OUT=$2 R=${3:-2}
S=${SIZES:-9,10,12,13,14,16,17,20,24,28,32}
for r in $(seq "$R"); do
    for layout in col row; do
        if [ $((r % 2)) = 1 ]; then order="OFF ON"; else order="ON OFF"; fi
        for c in $order; do
            if [ $c = OFF ]; then v=1000000000000; else v=16777216; fi
            echo "== $c layout $layout round $r $(cut -d' ' -f1 /proc/loadavg)"
            KOBALT_GEMM_PREFETCH_MIN_BYTES=$v OMP_WAIT_POLICY=PASSIVE "$B/bin/kobalt-bench" --routines gemm \
                --prec d,s --sizes "$S" --reps 9 --mb ${MB:-64} --peers xsmm --layout $layout 2>/dev/null
        done
    done
done >"$OUT"
