#!/bin/bash
# session 27: gemm's panel path (GEMM_PANEL_MAX) off / on, alternated, on the 2-core AMD Zen 5 VM
# (OpenBLAS 0.3.21 picks its Haswell core here); then the same with OPENBLAS_CORETYPE=SkylakeX
B=${1:-build-host}
for r in 1 2; do for v in 0 64; do
  echo "== GEMM_PANEL_MAX=$v round $r"
  KOBALT_OPENMP_GEMM_PANEL_MAX=$v KOBALT_PLUGIN_PATH=$B/lib OMP_WAIT_POLICY=PASSIVE $B/bin/kobalt-bench --routines gemm \
    --prec d,s --sizes 9,10,12,16,20,24,32,48,64,96 --mb 64 --reps 5 --peers blas,kokkos,xsmm,eigen 2>/dev/null | grep -E "gemm |copy"
done; done
for v in 0 64; do
  echo "== row-major GEMM_PANEL_MAX=$v"
  KOBALT_OPENMP_GEMM_PANEL_MAX=$v KOBALT_PLUGIN_PATH=$B/lib OMP_WAIT_POLICY=PASSIVE $B/bin/kobalt-bench --routines gemm \
    --prec d,s --sizes 9,12,16,24,32,64 --mb 64 --reps 5 --layout row --peers blas,xsmm 2>/dev/null | grep -E "gemm |copy"
done
