#!/usr/bin/env bash
# ab.sh BUILD_DIR ROUNDS "BENCH ARGS" CONFIG... -- an A/B (or A/B/C...) of environment settings
# of the CUDA plugin in one binary and one session: each round runs the benchmark once per
# CONFIG, in the order given, so that the GPU's clocks and the machine's state drift over all
# configurations alike (docs/performance.md, "CUDA backend", explains why the runs alternate).
#
#   BENCH ARGS  a benchmark of BUILD_DIR/bin and its arguments, as one word, e.g.
#               "kobalt-cuda-bench 268435456 16,32 getrf" or
#               "kobalt-cuda-desc-bench --reps 15 --standard 0 --ldp-align 32 --sizes 2,8 --routines getrf"
#   CONFIG      NAME (the plugin's defaults) or NAME:VAR=VALUE[,VAR=VALUE...], e.g.
#               OLD:KOBALT_CUDA_GETRF_FULL_MIN=0 NEW
#
# Each run is headed "== NAME round R" and the plugin is loaded from BUILD_DIR/lib (a config
# may point KOBALT_PLUGIN_PATH at another build's lib: the same binary against an older
# plugin); bench/cuda/ab_summary.py turns the output into one line per routine and n. Examples
# (the A/B runs of docs/performance.md):
#   ab.sh /tmp/bg 3 "kobalt-cuda-bench 268435456 4,8,16,32 getrf" OLD:KOBALT_CUDA_GETRF_FULL_MIN=0 NEW
#   ab.sh /tmp/bg 3 "kobalt-cuda-bench 268435456 2,3,4,5,6,7,8 getrs" \
#         OLD:KOBALT_CUDA_GETRS_PIPE_MIN=0 NEW:KOBALT_CUDA_GETRS_PIPE_MIN=1
set -eu
if [ $# -lt 4 ]; then
    sed -n '2,/^set -eu/p' "$0" | sed '$d' >&2
    exit 2
fi
BD=$1 ROUNDS=$2
read -r -a bench <<<"$3"
shift 3
bench[0]="$BD/bin/${bench[0]}"
export KOBALT_PLUGIN_PATH=$BD/lib
for r in $(seq "$ROUNDS"); do
    for c in "$@"; do
        name=${c%%:*}
        settings=()
        if [ "$name" != "$c" ]; then IFS=, read -r -a settings <<<"${c#*:}"; fi
        echo "== $name round $r"
        env "${settings[@]}" "${bench[@]}" || echo "== $name round $r: exit status $?"
    done
done
