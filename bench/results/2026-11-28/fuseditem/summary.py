#!/usr/bin/env python3
"""summary.py DIR -- (copied from bench/results/2026-11-22/hostfused8) medians over the alternations of ab.sh's CSVs (arm-rep.csv).

Per arm, precision and n: Kobalt's us per item, kobalt3 / kobalt (Kobalt's own three calls
over the fused call), blas / kobalt (the OpenBLAS/LAPACK three sweeps over the fused call),
Kobalt's % of the copy-bandwidth floor; median over the rounds [range]; then each arm's
speed-up over 'old' (old time / arm time, median over rounds)."""
import csv, glob, os, statistics, sys
from collections import defaultdict

d = sys.argv[1]
data = defaultdict(lambda: defaultdict(list))  # (arm, prec, n) -> metric -> [values]
times = defaultdict(dict)                       # (arm, prec, n) -> rep -> kobalt time
for path in sorted(glob.glob(os.path.join(d, "*-*.csv"))):
    arm, rep = os.path.basename(path)[:-4].rsplit("-", 1)
    rows = defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if r["ok"] != "1":
            continue
        rows[(r["prec"], int(r["n"]))][r["contender"]] = r
    for (p, n), c in rows.items():
        if "kobalt" not in c:
            continue
        k = float(c["kobalt"]["median_s"])
        m = data[(arm, p, n)]
        m["us"].append(float(c["kobalt"]["us_per_item"]))
        m["bw"].append(float(c["kobalt"]["pct_bw_floor"]))
        if "kobalt3" in c:
            m["k3"].append(float(c["kobalt3"]["median_s"]) / k)
        if "blas" in c:
            m["blas"].append(float(c["blas"]["median_s"]) / k)
        times[(arm, p, n)][rep] = k

def f(v, fmt):
    if not v:
        return "-"
    return (fmt % statistics.median(v)) + " [" + (fmt % min(v)) + "-" + (fmt % max(v)) + "]"

arms = sorted({a for a, _, _ in data}, key=lambda a: {"old": 0, "new": 1}.get(a, 2))
print("| arm | prec | n | us/item | own three calls / fused | three sweeps / fused | % of copy bw | speed-up over old |")
print("|---|---|---|---|---|---|---|---|")
for a in arms:
    for p in ("d", "s"):
        for n in sorted({n for aa, pp, n in data if aa == a and pp == p}):
            m = data[(a, p, n)]
            sp = [times[("old", p, n)][r] / t for r, t in times[(a, p, n)].items() if r in times[("old", p, n)]]
            print(f"| {a} | {p} | {n} | {f(m['us'], '%.4f')} | {f(m['k3'], '%.2f')} | {f(m['blas'], '%.1f')} | "
                  f"{f(m['bw'], '%.0f')} | {f(sp, '%.2f')} |")
