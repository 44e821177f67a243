#!/bin/sh
# run_host_suite.sh -- the full kobalt-bench table of issue 3, one invocation per routine
# and precision, so that a crash or a slow line in one loses nothing else (kobalt-bench
# writes its --out file only at the end of an invocation).
#
#   bench/run_host_suite.sh BUILD_DIR OUT_DIR [extra kobalt-bench options]
#
# Writes OUT_DIR/<prec><routine>.csv, .txt (the stdout table) and .err (progress), and
# OUT_DIR/load.txt (uptime before and after each invocation: the machine may be shared).
# ROUTINES="gemm getrf ..." and SIZES=2,4,... pick subsets (default: all nine, the 17 n).
# Then: /usr/bin/python3 bench/plot.py OUT_DIR/*.csv
set -u
build=$1
out=$2
shift 2
mkdir -p "$out"
sizes=${SIZES:-2,3,4,5,6,8,10,12,16,20,24,32,48,64,96,128,256}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
for r in ${ROUTINES:-gemm gemv trsv trsm getrf getrs fused getrf_np fused_np}; do
  for p in d s; do
    echo "$p$r start $(date -u +%T) $(uptime)" >> "$out/load.txt"
    "$build/bin/kobalt-bench" --routines "$r" --prec "$p" --sizes "$sizes" \
      --out "$out/$p$r.csv" "$@" > "$out/$p$r.txt" 2> "$out/$p$r.err"
    rc=$?
    echo "$p$r end   $(date -u +%T) rc=$rc $(uptime)" >> "$out/load.txt"
  done
done
echo "all done $(date -u +%T)" >> "$out/load.txt"
