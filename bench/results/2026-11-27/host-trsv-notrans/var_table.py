#!/usr/bin/env python3
"""var_table.py DIR ARM[,ARM...] -- per configuration, precision and n: each arm's best peer /
Kobalt (median over rounds [range]; best peer = the fastest other contender of the same
invocation) and, after a slash, its Kobalt time relative to the first arm's (first / arm,
> 1: faster than the first arm; median of the per-round ratios). Reads <cfg>-mem-<arm>-<round>.csv."""
import csv, glob, os, re, statistics as st, sys
from collections import defaultdict
d, arms = sys.argv[1], sys.argv[2].split(",")
kob = defaultdict(dict); rat = defaultdict(dict)
for f in glob.glob(os.path.join(d, "*.csv")):
    m = re.match(r"(\w+)-mem-(\w+)-(\d+)\.csv", os.path.basename(f))
    if not m: continue
    cfg, arm, rnd = m.group(1), m.group(2), int(m.group(3))
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] == "1": rows[(r["prec"], int(r["n"]))][r["contender"]] = float(r["median_s"])
    for (p, n), c in rows.items():
        if "kobalt" not in c: continue
        kob[(cfg, p, n, arm)][rnd] = c["kobalt"]
        o = [v for k, v in c.items() if k != "kobalt"]
        if o: rat[(cfg, p, n, arm)][rnd] = min(o) / c["kobalt"]
def f(v): return f"{st.median(v):.2f} [{min(v):.2f}-{max(v):.2f}]" if v else "-"
for cfg in sorted({k[0] for k in kob}):
    print(f"\n{cfg}: best peer / Kobalt [range] / {arms[0]} time over arm time\n")
    print("| prec | n | " + " | ".join(arms) + " |\n|---|---|" + "---|" * len(arms))
    for p in ("d", "s"):
        for n in sorted({k[2] for k in kob if k[0] == cfg and k[1] == p}):
            cells = []
            for a in arms:
                b = kob.get((cfg, p, n, arms[0]), {}); x = kob.get((cfg, p, n, a), {})
                rel = [b[r] / x[r] for r in x if r in b]
                cells.append(f"{f(list(rat[(cfg, p, n, a)].values()))} / {st.median(rel):.2f}" if rel else "-")
            print(f"| {p} | {n} | " + " | ".join(cells) + " |")
