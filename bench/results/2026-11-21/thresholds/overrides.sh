#!/bin/sh
# default vs env-overridden thresholds, alternating, same peers as anchor
B=/tmp/build-hostplots/bin/kobalt-bench
O=$1
mkdir -p $O
export OMP_WAIT_POLICY=PASSIVE
for rep in 1 2; do
  echo "rep $rep start $(date -u +%T) $(uptime)" >> $O/load.txt
  $B --routines gemv --prec d,s --sizes 6,8,10,12,16,20,24 --mb 64 --reps 5 --peers blas,kokkos --out $O/gemv-default-$rep.csv > $O/gemv-default-$rep.txt 2>/dev/null
  KOBALT_OPENMP_GEMV_SMALL_MAX=24 $B --routines gemv --prec d,s --sizes 6,8,10,12,16,20,24 --mb 64 --reps 5 --peers blas,kokkos --out $O/gemv-24-$rep.csv > $O/gemv-24-$rep.txt 2>/dev/null
  $B --routines trsv --prec d,s --sizes 24,32,48,64,96,128,256 --mb 64 --reps 5 --peers blas,kokkos --out $O/trsv-default-$rep.csv > $O/trsv-default-$rep.txt 2>/dev/null
  KOBALT_OPENMP_TRSV_SMALL_MAX=256 $B --routines trsv --prec d,s --sizes 24,32,48,64,96,128,256 --mb 64 --reps 5 --peers blas,kokkos --out $O/trsv-256-$rep.csv > $O/trsv-256-$rep.txt 2>/dev/null
  $B --routines getrs --prec d,s --sizes 24,32,48,64,96,128,256 --mb 64 --reps 5 --peers blas,kokkos --out $O/getrs-default-$rep.csv > $O/getrs-default-$rep.txt 2>/dev/null
  KOBALT_OPENMP_GETRS_SMALL_MAX=256 $B --routines getrs --prec d,s --sizes 24,32,48,64,96,128,256 --mb 64 --reps 5 --peers blas,kokkos --out $O/getrs-256-$rep.csv > $O/getrs-256-$rep.txt 2>/dev/null
  echo "rep $rep end $(date -u +%T) $(uptime)" >> $O/load.txt
done
echo done >> $O/load.txt
