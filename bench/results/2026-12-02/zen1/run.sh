#!/bin/sh
# session 29: gemm's panel path under OpenBLAS's Zen core (AMD Zen 1 VM, 2 cores), main's
# defaults (256 / 256) against the new Zen defaults (80 double / 96 float), alternated.
#   bench/results/2026-12-02/zen1/run.sh BUILD_DIR > ab.txt
B=$1
S=48,64,80,88,96,112,128,192,256
for r in 1 2 3; do
  for v in old new; do
    echo "== $v round $r"
    if [ $v = old ]; then env="KOBALT_OPENMP_GEMM_PANEL_MAX=256 KOBALT_OPENMP_GEMM_PANEL_MAX_FLOAT=256"; else env=; fi
    env $env OMP_WAIT_POLICY=PASSIVE $B/bin/kobalt-bench --routines gemm --prec d,s --sizes $S \
      --reps 5 --mb 32 --peers blas,xsmm 2>/dev/null | grep gemm
  done
done
