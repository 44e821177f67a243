#!/bin/bash
# run.sh OUT ROUNDS SIZES (from a build directory; CONFIGS="default item packed compose ..."):
# configurations of the fused call's small path, alternated; kobalt3 = Kobalt's own three calls
# in the same line (ratio.py: kobalt3 / fused). Files: compose_item.txt (default, compose, item),
# packed.txt (default, packed), one_region.txt (default, r64k, r256, r1m). The r* configurations
# need KOBALT_EXP_ONE_REGION, a temporary build of session 46 that ran the composition in one
# parallel region (not kept: docs/performance.md, "The fused call at n <= 8 on AMD Zen 5");
# on any other build they run the composition with FUSED_CHUNK_BYTES a thread.
O=$1; R=$2; S=$3
for r in $(seq $R); do for layout in col row; do for c in ${CONFIGS:-default item fixed}; do
  case $c in
    default) env="";;
    item) env="KOBALT_FUSED_ITEM_MIN=2 KOBALT_FUSED_ITEM_MIN_FLOAT=2";;
    compose) env="KOBALT_FUSED_COMPOSE_MIN=2";;
    r256) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=262144";;
    r1m) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=1048576";;
    r64k) env="KOBALT_EXP_ONE_REGION=1 KOBALT_FUSED_COMPOSE_MIN=2 KOBALT_FUSED_CHUNK_BYTES=65536";;
    packed) env="KOBALT_FUSED_ITEM_MIN=9 KOBALT_FUSED_ITEM_MIN_FLOAT=9";;
    fixed) env="KOBALT_PACKED_LU_MAX=0 KOBALT_FUSED_ITEM_MIN=9 KOBALT_FUSED_ITEM_MIN_FLOAT=9";;
  esac
  echo "== $c layout $layout round $r"
  env $env OMP_WAIT_POLICY=PASSIVE ./bin/kobalt-bench --routines fused --prec d,s --sizes $S --reps 7 --mb 64 --peers kobalt3 --layout $layout 2>/dev/null | grep -E "^[ds]fused"
done; done; done > $O
