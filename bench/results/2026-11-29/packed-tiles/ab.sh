#!/bin/bash
# ab.sh OUTDIR ROUNDS kobalt-bench-args... : alternates the backends in /tmp/old and /tmp/new
# (KOBALT_PLUGIN_PATH), old first (ORDER="new old": new first), then summarises.
out=$1; rounds=$2; shift 2; mkdir -p $out
for r in $(seq 1 $rounds); do for v in ${ORDER:-old new}; do
  KOBALT_PLUGIN_PATH=/tmp/$v OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE /tmp/b/bin/kobalt-bench "$@" > $out/$v.$r.txt 2>/dev/null
done; done
python3 "$(dirname "$0")/summarize.py" $out $rounds
