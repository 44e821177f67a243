#!/usr/bin/env bash
# single_cicc_ab.sh -- session 31's one device call: the CUDA plugin of Kobalt's new default
# build (one compute_80 front-end pass, SASS for sm_80 and sm_90, compute_80 PTX) against
# the build every GPU figure was measured with (-DCMAKE_CUDA_ARCHITECTURES=90), on one
# binary through KOBALT_PLUGIN_PATH (bench/cuda/ab.sh), then the CUDA and cuBLAS-shim tests
# on the new build. Run from the repository root; writes under $OUT.
set -u
O=${OUT:-/tmp/out}
mkdir -p "$O"
t0=$SECONDS
stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a "$O/steps.txt"; }
cfg=(-G Ninja -DKOBALT_WITH_OPENMP=OFF -DKOBALT_BUILD_FORTRAN=OFF -DKOBALT_BUILD_EXAMPLES=OFF)
cmake -S . -B /tmp/bn "${cfg[@]}" >"$O/cfg_new.txt" 2>&1
cmake -S . -B /tmp/bo "${cfg[@]}" -DCMAKE_CUDA_ARCHITECTURES=90 >"$O/cfg_old.txt" 2>&1
stamp configured
ninja -C /tmp/bn -j11 >"$O/build_new.txt" 2>&1 &
pn=$!
ninja -C /tmp/bo -j5 kobalt-cuda >"$O/build_old.txt" 2>&1 &
po=$!
wait $pn; rn=$?
wait $po; ro=$?
stamp "builds: new rc=$rn, old rc=$ro"
tail -3 "$O/build_new.txt" "$O/build_old.txt"
/usr/local/cuda/bin/cuobjdump --list-elf /tmp/bn/lib/libkobalt-cuda.so | sed 's/.*\.\(sm_[0-9]*\)\..*/\1/' | sort | uniq -c | tee "$O/elf_new.txt"
/usr/local/cuda/bin/cuobjdump --list-ptx /tmp/bn/lib/libkobalt-cuda.so | sed 's/.*\.\(sm_[0-9]*\)\..*/\1/' | sort | uniq -c | tee "$O/ptx_new.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$O/gpu.txt"
if [ $rn -eq 0 ] && [ $ro -eq 0 ]; then
    timeout 200 bench/cuda/ab.sh /tmp/bn 2 "kobalt-cuda-bench 134217728 2,4,8,16,24,32,128 gemm,getrf,getrs,fused" \
        OLD:KOBALT_PLUGIN_PATH=/tmp/bo/lib NEW >"$O/ab.txt" 2>&1
    stamp "ab rc=$?"
fi
if [ $rn -eq 0 ]; then
    left=$((570 - (SECONDS - t0)))
    timeout $left ctest --test-dir /tmp/bn -R 'cuda|cublas' -j4 --timeout 300 >"$O/ctest.txt" 2>&1
    stamp "ctest rc=$?"
    tail -25 "$O/ctest.txt"
fi
