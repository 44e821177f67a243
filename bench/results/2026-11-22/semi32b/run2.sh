#!/bin/bash
# Second device run of branch semi32b (H200), the final defaults: build, SASS check of the
# min/max instructions, GPU semiring tests, then two rounds of the final kernel against the
# grid before this branch (SEMIRING_TILE_BLOCKS_PER_SM=32) in double and against the float
# group kernel with the old grid (SEMIRING_TILE_MIN_FLOAT=33) in float; n = 17, 20 once.
# Usage: run2.sh OUTDIR (at most 8 files come back: keep to 6)
set -o pipefail
O=$1; B=/tmp/bg; D=$(dirname "$0")
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $O/build.log 2>&1 || exit 1
(for a in 80 90 100; do /usr/local/cuda/bin/nvcc -arch=sm_$a -cubin -o /tmp/mm$a.cubin $D/minmax_sass.cu &&
  echo "== sm_$a" && /usr/local/cuda/bin/cuobjdump -sass /tmp/mm$a.cubin | grep -E 'Function|MNMX|SETP|SEL|DADD'; done) > $O/minmax_sass.txt 2>&1 &
cmake --build $B -j16 --target kobalt kobalt-cuda semiring-cuda-bench test_cuda_semiring >> $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
wait
(cd $B && ctest -R cuda_semiring -j4 --output-on-failure) 2>&1 | tee $O/ctest.txt | tail -12
export KOBALT_PLUGIN_PATH=$B/lib
R() { echo "### $*"; env "$@" $B/bin/semiring-cuda-bench 268435456 $N $P; }
N=24,32
for round in 1 2; do
  P=d; R X=final; R KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32
  P=s; R X=final; R KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=33 KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32
done > $O/final.txt 2>&1
N=17,20
(P=d; R X=final; R KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32
 P=s; R X=final; R KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=33 KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32) > $O/small_n.txt 2>&1
grep -h -E '###|n=|min_plus|min_max' $O/final.txt $O/small_n.txt | cut -c1-62
grep -c -E 'MNMX' $O/minmax_sass.txt; grep -E 'Function|MNMX' $O/minmax_sass.txt | head -40
