#!/usr/bin/env python3
"""bw_blas.py DIR -- for the A/B series of ab.sh: per configuration, precision and n, the
median over the rounds of Kobalt's %bw (memory floor / Kobalt time) and of the LAPACK loop's
time over Kobalt's (goal 2), old and new, with the range of the new."""
import csv, glob, os, re, statistics, sys
from collections import defaultdict
d = sys.argv[1]
pct, vsb = defaultdict(list), defaultdict(list)
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    m = re.match(r"(\w+-\w+)-(\w+)-(\d+)\.csv", os.path.basename(f))
    if not m:
        continue
    cfg, v = m.group(1), m.group(2)
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] == "1":
            rows[(r["prec"], int(r["n"]))][r["contender"]] = r
    for (p, n), c in rows.items():
        k = c.get("kobalt")
        if not k:
            continue
        pct[(cfg, p, n, v)].append(float(k["pct_bw_floor"]))
        if "blas" in c:
            vsb[(cfg, p, n, v)].append(float(c["blas"]["us_per_item"]) / float(k["us_per_item"]))
for cfg in sorted({k[0] for k in pct}):
    for p in ("d", "s"):
        ns = sorted({k[2] for k in pct if k[0] == cfg and k[1] == p})
        print(f"{cfg} {p}getrs  n: " + " / ".join(str(n) for n in ns))
        for name, dd in (("%bw", pct), ("LAPACK loop / Kobalt", vsb)):
            o = [statistics.median(dd[(cfg, p, n, "old")]) for n in ns]
            nw = [dd[(cfg, p, n, "new")] for n in ns]
            print(f"  {name} old: " + " / ".join(f"{x:.3g}" for x in o))
            print(f"  {name} new: " + " / ".join(f"{statistics.median(x):.3g} ({min(x):.3g}-{max(x):.3g})" for x in nw))
