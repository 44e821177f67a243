#!/bin/bash
# menv.sh OUT ROUNDS args: same plugin (/tmp/new); variant tiles = every item as tiles (session 20),
# def = the defaults (tile bounds); start variant alternates each round
out=$1; R=$2; shift 2; mkdir -p $out
for r in $(seq 1 $R); do
  if [ $((r % 2)) = 1 ]; then ord="tiles def"; else ord="def tiles"; fi
  for v in $ord; do
    if [ $v = tiles ]; then e="KOBALT_PACKED_TILE_MAX_BYTES=1000000 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=1000000"; else e="X=1"; fi
    env $e KOBALT_PLUGIN_PATH=/tmp/new OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE /tmp/b/bin/kobalt-bench "$@" > $out/$v.$r.txt 2>/dev/null
  done
done
python3 /tmp/exp/msm.py $out
