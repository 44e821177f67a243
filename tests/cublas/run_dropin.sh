#!/usr/bin/env bash
# run_dropin.sh PLAIN_EXE SHIM_EXE RECORDING [PRELOAD_LIBRARY]
# The cuBLAS drop-in test (docs/cublas.md): PLAIN_EXE runs plain cuBLAS and records its
# results, then SHIM_EXE makes the same calls through the shim and compares, with the
# shim's per-call log on (KOBALT_CUBLAS_VERBOSE=1). With PRELOAD_LIBRARY the second run
# has LD_PRELOAD set to it; otherwise SHIM_EXE is linked with -lkobalt-cublas ahead of
# -lcublas. Exit 77 (skipped) when the plain run finds no CUDA device.
set -u
plain=$1 shim=$2 recording=$3 preload=${4:-}
"$plain" plain "$recording"
rc=$?
if [ "$rc" -eq 77 ]; then exit 77; fi
if [ "$rc" -ne 0 ]; then
  echo "run_dropin.sh: the plain cuBLAS run failed (exit $rc)"
  exit 1
fi
if [ -n "$preload" ]; then
  LD_PRELOAD="$preload" KOBALT_CUBLAS_VERBOSE=1 "$shim" shim "$recording"
else
  KOBALT_CUBLAS_VERBOSE=1 "$shim" shim "$recording"
fi
