#!/usr/bin/env python3
"""compare.py -- time the same cuBLAS program plain and under the Kobalt drop-in.

    compare.py BENCH SHIM [--set NAME=VALUE ...] [-- BENCH-ARGS...]

Runs BENCH (cublas-bench) twice with the same arguments: as it is, then with
LD_PRELOAD=SHIM (and KOBALT_CUBLAS_VERBOSE unset). --set adds environment variables to
the second run only (e.g. KOBALT_CUBLAS_GETRF_MAX=32 to make the shim serve sizes its
defaults forward). Prints both raw outputs, then a markdown table with the medians and
the speedup plain / shim per routine, precision and size (docs/performance.md).
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
    extra, args, i = {}, [], 3
    while i < len(argv):
        if argv[i] == "--set":
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
    print()
    print("| routine | p | n | batch | cuBLAS ms | shim ms | speedup |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(plain, key=lambda k: (k[0], k[1], k[2])):
        if key not in kobalt:
            continue
        b, pm, _, _ = plain[key]
        _, km, kmin, kmax = kobalt[key]
        print("| %s | %s | %d | %d | %.4f | %.4f | %.2fx |" % (key[0], key[1], key[2], b, pm, km, pm / km))


if __name__ == "__main__":
    main(sys.argv)
