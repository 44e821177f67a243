#!/usr/bin/env python3
"""ab_summary.py -- one line per routine and n of an ab.sh run of kobalt-cuda-bench:

    ab.sh BUILD 3 "kobalt-cuda-bench 268435456 9,16,32 getrf" OLD:VAR=0 NEW > ab.txt
    ab_summary.py ab.txt

For each configuration: Kobalt's ms over the rounds (min-max), the median % of the copy
bandwidth, and cuBLAS's median time over Kobalt's median (cuBLAS timed in every run: its
median over all of them). The device scripts under bench/results/ pasted this as inline
Python before it lived here."""
import re
import statistics as st
import sys

cur, d = None, {}
for line in open(sys.argv[1] if len(sys.argv) > 1 else "/dev/stdin"):
    m = re.match(r"== (\w+) round", line)
    if m:
        cur = m.group(1)
        continue
    m = re.match(r"(\w+)\s+(\d+)\s+\d+ \|\s+([\d.]+)\s+(\d+)%\s+\|\s+([\d.]+)", line)
    if m and cur:
        key = (m.group(1), int(m.group(2)))
        d.setdefault(key, {}).setdefault(cur, []).append((float(m.group(3)), int(m.group(4)), float(m.group(5))))
for key in sorted(d):
    cublas = st.median(x[2] for v in d[key].values() for x in v)
    cells = []
    for name, v in d[key].items():
        ms = [x[0] for x in v]
        cells.append(f"{name}: {min(ms):.3f}-{max(ms):.3f} ({st.median(x[1] for x in v)}%, "
                     f"{cublas / st.median(ms):.2f}x)")
    print(f"{key[0]} {key[1]}  cublas {cublas:.3f}  " + "  ".join(cells))
