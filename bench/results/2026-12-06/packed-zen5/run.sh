#!/bin/bash
# run.sh OUT ROUNDS SIZES ROUTINES (from a build directory; CONFIGS="default tiles ..."):
# the packed path's copies on AMD Zen 5, configurations alternated within each round, from
# memory (64 MB an operand, 2 threads); kobalt3 = Kobalt's own three calls in the fused lines.
O=$1; R=$2; S=$3; RT=${4:-getrf,getrs,fused}
for r in $(seq $R); do for layout in ${LAYOUTS:-col}; do for c in ${CONFIGS:-default tiles tilespk}; do
  case $c in
    default) env="";;
    # every item size as W x W tiles, no software prefetch of the packs ahead
    tiles) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512 KOBALT_PACKED_PREFETCH_BYTES=1000000";;
    # the same, and the fused call on the packed path at n = 8 too
    tilespk) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512 KOBALT_PACKED_PREFETCH_BYTES=1000000 KOBALT_FUSED_ITEM_MIN=9 KOBALT_FUSED_ITEM_MIN_FLOAT=9";;
    nopf) env="KOBALT_PACKED_PREFETCH_BYTES=1000000";;
    # the packs ahead: old = six at every size (before PACKED_PREFETCH_AHEAD_BYTES), aN = N KiB
    old) env="KOBALT_PACKED_PREFETCH_AHEAD_BYTES=1000000";;
    # the defaults before session 47's change on Zen 5 (element copies, six packs ahead)
    head) env="KOBALT_PACKED_FUSED_TILE_MAX_BYTES=100 KOBALT_PACKED_PREFETCH_AHEAD_BYTES=1048576";;
    a4) env="KOBALT_PACKED_PREFETCH_AHEAD_BYTES=4096";;
    a16) env="KOBALT_PACKED_PREFETCH_AHEAD_BYTES=16384";;
    t512) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512";;
    t512a16) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512 KOBALT_PACKED_PREFETCH_AHEAD_BYTES=16384";;
    t512nopf) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512 KOBALT_PACKED_PREFETCH_BYTES=1000000";;
    tilesonly) env="KOBALT_PACKED_TILE_MAX_BYTES=512 KOBALT_PACKED_FUSED_TILE_MAX_BYTES=512";;
  esac
  echo "== $c layout $layout round $r"
  env $env OMP_WAIT_POLICY=PASSIVE ./bin/kobalt-bench --routines $RT --prec d,s --sizes $S --reps 7 --mb 64 --peers ${PEERS:-kobalt3} --layout $layout 2>/dev/null | grep -E "^[ds][a-z]+ "
done; done; done > $O
