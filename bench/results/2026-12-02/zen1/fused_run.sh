#!/bin/sh
# session 29: the fused call above n = 8 as chunked composition (FUSED_COMPOSE_MIN = 9, the
# default) against main's one loop (FUSED_COMPOSE_MIN = 1000), alternated, AMD Zen 1 VM.
#   bench/results/2026-12-02/zen1/fused_run.sh BUILD_DIR > fused_ab.txt
B=$1
for r in 1 2; do
  for v in 1000 9; do
    echo "== FUSED_COMPOSE_MIN=$v round $r"
    KOBALT_OPENMP_FUSED_COMPOSE_MIN=$v KOBALT_OPENMP_FUSED_COMPOSE_MAX=128 OMP_WAIT_POLICY=PASSIVE \
      $B/bin/kobalt-bench --routines fused,fused_np --prec d,s --sizes 8,10,12,16,20,24,32,48,64,96,128 \
      --reps 5 --mb 32 --peers blas,kobalt3 2>/dev/null | grep fused
  done
done
