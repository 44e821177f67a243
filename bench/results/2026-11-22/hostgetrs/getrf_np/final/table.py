#!/usr/bin/env python3
"""getrf_np final A/B tables: per configuration and precision, Kobalt us (median over the two
alternations) for old / new / wide, and best peer / Kobalt for old and new (median).
    table.py <dir>"""
import csv, glob, os, re, statistics, sys
from collections import defaultdict
d = sys.argv[1] if len(sys.argv) > 1 else "."
kob, peer = defaultdict(dict), defaultdict(dict)
for f in glob.glob(d + "/*.csv"):
    cfg, arm, rep = re.match(r"(\w+-\w+)-(old|new|wide)-(\d+)\.csv", os.path.basename(f)).groups()
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] == "1":
            rows[(r["prec"], int(r["n"]))][r["contender"]] = float(r["us_per_item"])
    for (p, n), c in rows.items():
        kob[(cfg, p, n, arm)][rep] = c["kobalt"]
        peer[(cfg, p, n, arm)][rep] = min(t for k, t in c.items() if k != "kobalt")
ns = sorted({k[2] for k in kob})
print("best peer / Kobalt, old (GETRF_NP_SMALL_MAX 8) -> new (48) [range over alternations]; n = 56, 64: wide (1000)\n")
print("| config | " + " | ".join(f"n = {n}" for n in ns) + " |")
print("|---" * (len(ns) + 1) + "|")
for cfg in ["colN-mem", "rowN-mem", "colN-l3", "rowN-l3"]:
    for p in ["d", "s"]:
        cells = []
        for n in ns:
            def ratio(arm):
                k, pp = kob[(cfg, p, n, arm)], peer[(cfg, p, n, arm)]
                return [pp[r] / k[r] for r in k if r in pp]
            o = ratio("old")
            nw = ratio("wide" if n > 48 else "new")
            cells.append(f"{statistics.median(o):.2f} -> {statistics.median(nw):.2f} [{min(nw):.2f}-{max(nw):.2f}]")
        print(f"| {p} {cfg} | " + " | ".join(cells) + " |")
