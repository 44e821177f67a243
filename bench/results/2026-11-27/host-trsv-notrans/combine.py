#!/usr/bin/env python3
"""combine.py RUN1 RUN2 -- one line per configuration, precision and n from two A/B runs of
ab.sh (arms old, new): best peer / Kobalt for old and new (median of the run's rounds,
run1 / run2) and new's speed-up over old (median of the per-round ratios, run1 / run2)."""
import csv, glob, os, re, statistics as st, sys
from collections import defaultdict
def load(d):
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
    return kob, rat
runs = [load(d) for d in sys.argv[1:3]]
print("| config | prec | n | best peer / Kobalt, old | best peer / Kobalt, new | new/old |")
print("|---|---|---|---|---|---|")
for cfg in ("colN", "rowN", "colT", "rowT"):
    for p in ("d", "s"):
        for n in sorted({k[2] for k in runs[0][0] if k[0] == cfg and k[1] == p}):
            o, w, s = [], [], []
            for kob, rat in runs:
                o.append(f"{st.median(rat[(cfg, p, n, 'old')].values()):.2f}")
                w.append(f"{st.median(rat[(cfg, p, n, 'new')].values()):.2f}")
                a, b = kob[(cfg, p, n, 'old')], kob[(cfg, p, n, 'new')]
                s.append(f"{st.median([a[r] / b[r] for r in a if r in b]):.2f}")
            print(f"| {cfg} | {p} | {n} | {' / '.join(o)} | {' / '.join(w)} | {' / '.join(s)} |")
