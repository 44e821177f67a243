#!/usr/bin/env python3
"""ab_tables.py -- tables of an A/B series of kobalt-bench CSV files named
<layout><trans>-<where>-<variant>-<round>.csv (e.g. colN-mem-old-1.csv), as the A/B scripts
under bench/results/ write them.

    ab_tables.py DIR [OLD NEW]     (variant labels; default old new)

Per configuration, precision and n: Kobalt's us per item OLD -> NEW (median over the
rounds), the NEW/OLD speed-up with its range over the rounds, and the best-peer ratio (best
peer time / Kobalt time) of the NEW and the OLD invocations (median, with the range for
NEW). Used for the getrsmid (labels 0 256), hostgetrs (old new) and getrf_np (vendor
small) series in docs/performance.md."""
import csv, glob, os, re, statistics, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "."
OLD, NEW = (sys.argv[2], sys.argv[3]) if len(sys.argv) > 3 else ("old", "new")
kob = defaultdict(list)    # (cfg, prec, n, v) -> [(rep, us)]
peer = defaultdict(list)   # (cfg, prec, n, v) -> [(rep, best_us, name)]
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    m = re.match(r"(\w+-\w+)-(\w+)-(\d+)\.csv", os.path.basename(f))
    if not m:
        continue
    cfg, v, rep = m.group(1), m.group(2), int(m.group(3))
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] != "1":
            continue
        rows[(r["prec"], int(r["n"]))][r["contender"]] = float(r["us_per_item"])
    for (p, n), c in rows.items():
        if "kobalt" not in c:
            continue
        kob[(cfg, p, n, v)].append((rep, c["kobalt"]))
        others = {k: t for k, t in c.items() if k != "kobalt"}
        if others:
            name = min(others, key=others.get)
            peer[(cfg, p, n, v)].append((rep, others[name], name))

def short(name):
    return {"blas": "B", "kokkos_u": "K", "kokkos_b": "K", "eigen": "E", "xsmm": "X"}.get(name, name)

cfgs = sorted({k[0] for k in kob})
for cfg in cfgs:
    print(f"\n{cfg}: Kobalt us/item old -> new (median), new/old speed-up [range over alternations], best peer / Kobalt new [range], old\n")
    print("| prec | n | old us | new us | speed-up | best peer / new | best peer / old |")
    print("|---|---|---|---|---|---|---|")
    for p in ("d", "s"):
        for n in sorted({k[2] for k in kob if k[0] == cfg and k[1] == p}):
            o, w = dict(kob.get((cfg, p, n, OLD), [])), dict(kob.get((cfg, p, n, NEW), []))
            if not o or not w:
                continue
            om, wm = statistics.median(o.values()), statistics.median(w.values())
            sp = [o[r] / w[r] for r in o if r in w]
            pn = peer.get((cfg, p, n, NEW), [])
            po = peer.get((cfg, p, n, OLD), [])
            rn = [b / w[r] for r, b, _ in pn if r in w]
            ro = [b / o[r] for r, b, _ in po if r in o]
            names = "/".join(sorted({short(x) for _, _, x in pn}))
            print(f"| {p} | {n} | {om:.4g} | {wm:.4g} | {om / wm:.2f} [{min(sp):.2f}-{max(sp):.2f}] | "
                  f"{statistics.median(rn):.2f} {names} [{min(rn):.2f}-{max(rn):.2f}] | {statistics.median(ro):.2f} |")
