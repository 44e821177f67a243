#!/usr/bin/env bash
# cxx20_check.sh -- session 32's device call: the CUDA plugin built as C++20 (CUDA_STANDARD 20,
# CMake taught nvcc's -std=c++20) against the same tree built with the old flags
# ("-std=c++20 ... -std=c++17": nvcc kept the last one, so the plugin was C++17). Compares the
# two plugins' SASS, times them on one binary (bench/cuda/ab.sh) only if the SASS differs, then
# runs the CUDA and cuBLAS-shim tests on the new build. Run from the repository root; writes
# under $OUT.
set -u
O=${OUT:-/tmp/out}
mkdir -p "$O"
t0=$SECONDS
stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a "$O/steps.txt"; }
# The old tree: this one with the old flags put back.
mkdir -p /tmp/old && tar --exclude=./build --exclude=./build-host -cf - . | tar -xf - -C /tmp/old
sed -i -e '/CUDA_STANDARD/d' \
    -e 's/\$<\$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall/$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 -Xcompiler=-Wall/' \
    /tmp/old/backends/cuda/CMakeLists.txt
cfg=(-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF)
cmake -S . -B /tmp/bn "${cfg[@]}" >"$O/cfg_new.txt" 2>&1
cmake -S /tmp/old -B /tmp/bo "${cfg[@]}" >"$O/cfg_old.txt" 2>&1
grep -A3 'plugin.cu.o:' /tmp/bn/build.ninja | grep FLAGS | tee "$O/flags_new.txt"
grep -A3 'plugin.cu.o:' /tmp/bo/build.ninja | grep FLAGS | tee "$O/flags_old.txt"
stamp configured
ninja -C /tmp/bn -j11 >"$O/build_new.txt" 2>&1 &
pn=$!
ninja -C /tmp/bo -j5 kobalt-cuda >"$O/build_old.txt" 2>&1 &
po=$!
wait $pn; rn=$?
wait $po; ro=$?
stamp "builds: new rc=$rn, old rc=$ro"
grep -c "incompatible redefinition" "$O/build_new.txt" "$O/build_old.txt"
tail -3 "$O/build_new.txt" "$O/build_old.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$O/gpu.txt"
same=0
if [ $rn -eq 0 ] && [ $ro -eq 0 ]; then
    cuobjdump -sass /tmp/bn/lib/libkobalt-cuda.so | grep -v '^\s*$' >/tmp/sass_new.txt
    cuobjdump -sass /tmp/bo/lib/libkobalt-cuda.so | grep -v '^\s*$' >/tmp/sass_old.txt
    wc -l /tmp/sass_new.txt /tmp/sass_old.txt | tee "$O/sass.txt"
    if cmp -s /tmp/sass_new.txt /tmp/sass_old.txt; then same=1; echo "SASS identical" | tee -a "$O/sass.txt"
    else diff /tmp/sass_old.txt /tmp/sass_new.txt | head -200 >"$O/sass_diff.txt"
         diff /tmp/sass_old.txt /tmp/sass_new.txt | grep -c '^[<>]' | sed 's/^/differing lines: /' | tee -a "$O/sass.txt"; fi
    stamp "sass compared"
    if [ $same -eq 0 ]; then
        timeout 150 bench/cuda/ab.sh /tmp/bn 1 "kobalt-cuda-bench 134217728 2,4,8,16,24,32,128 gemm,getrf,getrs,fused" \
            OLD:KOBALT_PLUGIN_PATH=/tmp/bo/lib NEW >"$O/ab.txt" 2>&1
        stamp "ab rc=$?"
    fi
fi
if [ $rn -eq 0 ]; then
    left=$((580 - (SECONDS - t0)))
    timeout $left ctest --test-dir /tmp/bn -R 'cuda|cublas' -j4 --timeout 300 >"$O/ctest.txt" 2>&1
    stamp "ctest rc=$?"
    tail -25 "$O/ctest.txt"
fi
