#!/usr/bin/env python3
"""median_table.py FILE -- from env_ab.sh's output, per layout, routine and n: the median over
rounds of OFF time / ON time (> 1: the prefetch is faster) with its range, and the medians of
libxsmm time / Kobalt time with the prefetch on and off (> 1: Kobalt faster)."""
import re, sys, collections, statistics as st
t = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    m = re.match(r"== (\w+) layout (\w+) round (\d+)", line)
    if m:
        cfg, layout, rnd = m.group(1), m.group(2), int(m.group(3))
        continue
    f = line.split()
    if len(f) > 8 and re.match(r"^[ds]gemm", f[0]) and f[1].isdigit():
        cols = line.split("|")
        t[(layout, f[0], int(f[1]))][(cfg, rnd)] = (float(cols[1].split()[0]), float(cols[2].split()[2]))
print("layout routine   n  OFF/ON median [range]  xsmm/ON  xsmm/OFF")
for k in sorted(t):
    v = t[k]
    rs = sorted({r for (_, r) in v if ("OFF", r) in v and ("ON", r) in v})
    q = [v[("OFF", r)][0] / v[("ON", r)][0] for r in rs]
    x = [v[("ON", r)][1] / v[("ON", r)][0] for r in rs]
    xo = [v[("OFF", r)][1] / v[("OFF", r)][0] for r in rs]
    print("%-6s %-7s %3d  %.2f [%.2f-%.2f]     %.2f     %.2f" % (k[0], k[1], k[2], st.median(q), min(q), max(q), st.median(x), st.median(xo)))
