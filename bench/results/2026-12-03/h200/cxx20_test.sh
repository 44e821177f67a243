#!/usr/bin/env bash
# cxx20_test.sh -- session 33's device call: the CUDA plugin built as C++20 (CUDA_STANDARD 20,
# CMake taught nvcc's -std=c++20; before, CMake's own -std=c++17 came last and won). Builds the
# new tree, runs every CUDA and cuBLAS-shim test on it, and meanwhile builds the plugin with the
# old flags and compares the two plugins' SASS by checksum. Run from the repository root;
# writes under $OUT. (Session 32's run of cxx20_check.sh built both but ran out of time.)
set -u
O=${OUT:-/tmp/out}
mkdir -p "$O"
t0=$SECONDS
stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a "$O/steps.txt"; }
mkdir -p /tmp/old && tar --exclude=./build --exclude=./build-host -cf - . | tar -xf - -C /tmp/old
sed -i -e '/CUDA_STANDARD/d' \
    -e 's/\$<\$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall/$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall/' \
    /tmp/old/backends/cuda/CMakeLists.txt
cfg=(-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF)
cmake -S . -B /tmp/bn "${cfg[@]}" >"$O/cfg_new.txt" 2>&1
cmake -S /tmp/old -B /tmp/bo "${cfg[@]}" >"$O/cfg_old.txt" 2>&1
grep -A3 'plugin.cu.o:' /tmp/bn/build.ninja | grep FLAGS >"$O/flags_new.txt"
grep -A3 'plugin.cu.o:' /tmp/bo/build.ninja | grep FLAGS >"$O/flags_old.txt"
stamp configured
timeout 300 ninja -C /tmp/bn -j16 >"$O/build_new.txt" 2>&1; rn=$?
stamp "build new rc=$rn, redefinition warnings: $(grep -c 'incompatible redefinition' "$O/build_new.txt")"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv >"$O/gpu.txt"
(
  timeout 200 ninja -C /tmp/bo -j4 kobalt-cuda >"$O/build_old.txt" 2>&1; ro=$?
  stamp "build old rc=$ro, redefinition warnings: $(grep -c 'incompatible redefinition' "$O/build_old.txt")"
  if [ $ro -eq 0 ] && [ $rn -eq 0 ]; then
    a=$(cuobjdump -sass /tmp/bn/lib/libkobalt-cuda.so | md5sum)
    b=$(cuobjdump -sass /tmp/bo/lib/libkobalt-cuda.so | md5sum)
    stamp "sass md5 new $a old $b"
    [ "$a" = "$b" ] && stamp "SASS identical" || stamp "SASS differs"
  fi
) &
side=$!
if [ $rn -eq 0 ]; then
  left=$((585 - (SECONDS - t0)))
  timeout $left ctest --test-dir /tmp/bn -R 'cuda|cublas' -j8 --timeout 300 >"$O/ctest.txt" 2>&1
  stamp "ctest rc=$?"
  tail -n 25 "$O/ctest.txt"
fi
kill $side 2>/dev/null; wait
cat "$O/steps.txt"
