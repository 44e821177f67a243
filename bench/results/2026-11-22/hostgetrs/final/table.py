#!/usr/bin/env python3
"""The docs table of the final A/B: per configuration and precision, new/old (median of the
per-alternation ratios) / best peer over new (median), n = 32..256; in-L3 cells also take
the three extra alternations of l3more/ (n = 24, 128, 256).
    table.py <final dir>"""
import csv, glob, os, re, statistics, sys
from collections import defaultdict
d = sys.argv[1] if len(sys.argv) > 1 else "."
kob, peer = defaultdict(dict), defaultdict(dict)
for f in glob.glob(d + "/*.csv") + glob.glob(d + "/l3more/*.csv"):
    cfg, w, arm, rep = re.match(r"(\w+)-(\w+)-(old|new)-(\d+)\.csv", os.path.basename(f)).groups()
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] == "1":
            rows[(r["prec"], int(r["n"]))][r["contender"]] = float(r["us_per_item"])
    for (p, n), c in rows.items():
        kob[(cfg, w, p, n, arm)][rep] = c["kobalt"]
        peer[(cfg, w, p, n, arm)][rep] = min(t for k, t in c.items() if k != "kobalt")
ns = [24, 32, 40, 48, 56, 64, 96, 128, 256]
print("| config | " + " | ".join(f"n = {n}" for n in ns) + " |")
print("|---" * (len(ns) + 1) + "|")
for w in ["mem", "l3"]:
    for cfg in ["colN", "rowN", "colT", "rowT"]:
        for p in ["d", "s"]:
            cells = []
            for n in ns:
                o, nw, pn = kob[(cfg, w, p, n, "old")], kob[(cfg, w, p, n, "new")], peer[(cfg, w, p, n, "new")]
                sp = [o[r] / nw[r] for r in o if r in nw]
                bp = [pn[r] / nw[r] for r in pn]
                cells.append(f"{statistics.median(sp):.2f} / {statistics.median(bp):.2f}")
            print(f"| {p} {cfg}-{w} | " + " | ".join(cells) + " |")
