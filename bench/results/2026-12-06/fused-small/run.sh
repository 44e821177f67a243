#!/bin/bash
# configs of the fused call's small path, alternated; kobalt3 = Kobalt's own three calls in the same line
O=$1; R=$2; S=$3
for r in $(seq $R); do for layout in col row; do for c in ${CONFIGS:-default item fixed}; do
  case $c in
    default) env="";;
    item) env="KOBALT_FUSED_ITEM_MIN=2 KOBALT_FUSED_ITEM_MIN_FLOAT=2";;
    compose) env="KOBALT_FUSED_COMPOSE_MIN=2";;
    r256) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=262144";;
    r1m) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=1048576";;
    r64k) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=65536";;
    fixed) env="KOBALT_PACKED_LU_MAX=0 KOBALT_FUSED_ITEM_MIN=9 KOBALT_FUSED_ITEM_MIN_FLOAT=9";;
  esac
  echo "== $c layout $layout round $r"
  env $env OMP_WAIT_POLICY=PASSIVE ./bin/kobalt-bench --routines fused --prec d,s --sizes $S --reps 7 --mb 64 --peers kobalt3 --layout $layout 2>/dev/null | grep -E "^[ds]fused"
done; done; done > $O
