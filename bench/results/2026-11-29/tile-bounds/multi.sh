#!/bin/bash
# multi.sh OUT ROUNDS "dir:mode ..." args ; rotates the start variant each round
out=$1; R=$2; vars=($3); shift 3; mkdir -p $out; nv=${#vars[@]}
for r in $(seq 1 $R); do
  for i in $(seq 0 $((nv-1))); do v=${vars[$(( (i + r) % nv ))]}; d=${v%%:*}; m=${v##*:}
    KPK_MODE=$m KOBALT_PLUGIN_PATH=/tmp/$d OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE /tmp/b/bin/kobalt-bench "$@" > $out/${d}_$m.$r.txt 2>/dev/null
  done
done
