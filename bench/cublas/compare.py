#!/usr/bin/env python3
"""compare.py -- time the same cuBLAS program plain and under the Kobalt drop-in.

    compare.py BENCH SHIM [--set NAME=VALUE ...] [--forwarded] [-- BENCH-ARGS...]

Runs BENCH (cublas-bench) twice with the same arguments: as it is, then with
LD_PRELOAD=SHIM (and KOBALT_CUBLAS_VERBOSE unset). --set adds environment variables to
the second run only (e.g. KOBALT_CUBLAS_GETRF_MAX=32 to make the shim serve sizes its
defaults forward). --forwarded adds a third run under the shim with
KOBALT_CUBLAS_DISABLE=1: every call forwarded, which measures what the shim itself costs.
Prints the raw outputs, then a markdown table with the medians and the speedup
plain / shim per routine, precision and size (docs/performance.md).
"""
import os
import subprocess
import sys


def run(cmd, env):
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(out.stdout)
    if out.returncode != 0:
        sys.exit("%s exited with %d" % (" ".join(cmd), out.returncode))
    rows = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) == 7 and not line.startswith("#"):
            rows[(f[0], f[1], int(f[2]))] = (int(f[3]), float(f[4]), float(f[5]), float(f[6]))
    return rows


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    bench, shim = argv[1], argv[2]
    extra, args, i, forwarded = {}, [], 3, False
    while i < len(argv):
        if argv[i] == "--forwarded":
            forwarded = True
            i += 1
        elif argv[i] == "--set":
            k, v = argv[i + 1].split("=", 1)
            extra[k] = v
            i += 2
        elif argv[i] == "--":
            args = argv[i + 1:]
            break
        else:
            sys.exit("unknown argument " + argv[i])
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.pop("KOBALT_CUBLAS_VERBOSE", None)
    print("## plain cuBLAS: %s" % " ".join([bench] + args))
    plain = run([bench] + args, env)
    env2 = dict(env, LD_PRELOAD=shim, **extra)
    setting = " ".join("%s=%s" % kv for kv in sorted(extra.items()))
    print("## under the shim: LD_PRELOAD=%s %s %s" % (shim, setting, " ".join([bench] + args)))
    kobalt = run([bench] + args, env2)
    fwd = {}
    if forwarded:
        print("## every call forwarded: LD_PRELOAD=%s KOBALT_CUBLAS_DISABLE=1 %s" % (shim, " ".join([bench] + args)))
        fwd = run([bench] + args, dict(env, LD_PRELOAD=shim, KOBALT_CUBLAS_DISABLE="1"))
    print()
    head = "| routine | p | n | batch | cuBLAS ms | shim ms | speedup |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    if forwarded:
        head += " forwarded ms | forwarded / cuBLAS |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    for key in sorted(plain, key=lambda k: (k[0], k[1], k[2])):
        if key not in kobalt:
            continue
        b, pm, _, _ = plain[key]
        km = kobalt[key][1]
        line = "| %s | %s | %d | %d | %.4f | %.4f | %.2fx |" % (key[0], key[1], key[2], b, pm, km, pm / km)
        if forwarded and key in fwd:
            line += " %.4f | %.3f |" % (fwd[key][1], fwd[key][1] / pm)
        print(line)


if __name__ == "__main__":
    main(sys.argv)
