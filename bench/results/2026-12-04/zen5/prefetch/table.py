#!/usr/bin/env python3
"""table.py FILE -- ON/OFF time ratios (OFF time / ON time: > 1 means the prefetch is faster)
per routine, n and layout from env_ab.sh's output, one column per round, and libxsmm/ON."""
import re, sys, collections
t = collections.defaultdict(dict)   # (layout, routine, n) -> {(cfg, round): (kobalt, xsmm)}
cfg = None
for line in open(sys.argv[1]):
    m = re.match(r"== (\w+) layout (\w+) round (\d+)", line)
    if m:
        cfg, layout, rnd = m.group(1), m.group(2), int(m.group(3))
        continue
    f = line.split()
    if len(f) > 8 and re.match(r"^[ds](gemm|semiring)", f[0]) and f[1].isdigit():
        cols = line.split("|")
        kob = float(cols[1].split()[0])
        xs = cols[2].split()[2]
        t[(layout, f[0], int(f[1]))][(cfg, rnd)] = (kob, float(xs) if xs != "-" else None)
rounds = sorted({r for v in t.values() for (_, r) in v})
print("layout routine n | OFF/ON per round | xsmm/ON per round")
for key in sorted(t):
    v = t[key]
    r1 = ["%.2f" % (v[("OFF", r)][0] / v[("ON", r)][0]) for r in rounds if ("OFF", r) in v and ("ON", r) in v]
    r2 = ["%.2f" % (v[("ON", r)][1] / v[("ON", r)][0]) for r in rounds if ("ON", r) in v and v[("ON", r)][1]]
    print("%s %s %3d | %s | %s" % (key[0], key[1], key[2], " ".join(r1), " ".join(r2)))
