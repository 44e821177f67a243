#!/usr/bin/env bash
# ptx_check.sh OLD_TREE NEW_TREE -- compile getrs_pipe.cuh's kernels (every W, V, both operand
# forms) to PTX from two source trees with the local nvcc and compare them kernel by kernel
# (anonymous-namespace hash and branch-label numbers normalised); run from this folder.
set -eu
for t in old:$1 new:$2; do
    nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -ptx -I"${t#*:}/backends/cuda" -I"${t#*:}/include" \
        ptx_check_tu.cu -o "/tmp/${t%%:*}.ptx"
done
cd /tmp && python3 "$OLDPWD/d.py" old.ptx new.ptx
