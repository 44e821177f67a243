#!/bin/sh
B=/tmp/build-hostplots/bin/kobalt-bench
O=$1
export OMP_WAIT_POLICY=PASSIVE
for rep in 1 2; do
  echo "getrf_np rep $rep start $(date -u +%T) $(uptime)" >> $O/load.txt
  $B --routines getrf_np --prec d,s --sizes 8,10,12,16,24,32,48 --mb 64 --reps 5 --peers kokkos --out $O/getrf_np-default-$rep.csv > $O/getrf_np-default-$rep.txt 2>/dev/null
  KOBALT_OPENMP_GETRF_SMALL_MAX=8 $B --routines getrf_np --prec d,s --sizes 8,10,12,16,24,32,48 --mb 64 --reps 5 --peers kokkos --out $O/getrf_np-8-$rep.csv > $O/getrf_np-8-$rep.txt 2>/dev/null
  echo "getrf_np rep $rep end $(date -u +%T) $(uptime)" >> $O/load.txt
done
echo done2 >> $O/load.txt
