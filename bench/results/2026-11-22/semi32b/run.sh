#!/bin/bash
# Device run of branch semi32b (H200): build, SASS check, GPU semiring tests, A/B of the tile
# kernel's grid (SEMIRING_TILE_BLOCKS_PER_SM: 32 = the grid before this branch) and of the
# float tile at n = 24 / 32 (SEMIRING_TILE_MIN_FLOAT=17), two rounds. Usage: run.sh OUTDIR
set -o pipefail
O=$1; B=/tmp/bg; D=$(dirname "$0")
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $O/gpu.txt 2>&1
cmake -S . -B $B -G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF \
  -DKOBALT_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90 > $O/cmake.log 2>&1 || exit 1
(for a in 80 90 100; do /usr/local/cuda/bin/nvcc -arch=sm_$a -cubin -o /tmp/mm$a.cubin $D/minmax_sass.cu &&
  echo "== sm_$a" && /usr/local/cuda/bin/cuobjdump -sass /tmp/mm$a.cubin | grep -E 'Function|MNMX|SETP|SEL|DADD'; done) > $O/minmax_sass.txt 2>&1 &
cmake --build $B -j16 --target kobalt kobalt-cuda semiring-cuda-bench test_cuda_semiring > $O/build.log 2>&1 || { tail -50 $O/build.log; exit 1; }
wait
(cd $B && ctest -R cuda_semiring -j4 --output-on-failure) 2>&1 | tee $O/ctest.txt | tail -12
export KOBALT_PLUGIN_PATH=$B/lib
R() { echo "### $*"; env "$@" $B/bin/semiring-cuda-bench 268435456 24,32 ${P}; }
for round in 1 2; do
  P=d
  for v in 32 0 1000000 20; do R KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=$v; done >> $O/ab_d_round$round.txt 2>&1
  P=s
  R KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=32 >> $O/ab_s_round$round.txt 2>&1
  for v in 32 0 1000000; do R KOBALT_CUDA_SEMIRING_TILE_MIN_FLOAT=17 KOBALT_CUDA_SEMIRING_TILE_BLOCKS_PER_SM=$v; done >> $O/ab_s_round$round.txt 2>&1
done
grep -h -E '###|n=|min_plus|min_max' $O/ab_*round1.txt | cut -c1-90 | head -80
