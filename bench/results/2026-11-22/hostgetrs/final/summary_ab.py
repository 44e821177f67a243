#!/usr/bin/env python3
"""Tables of the getrs streamed direct solve A/B (ab.sh: old = main, new = streamed solve at n <= 256): per configuration, precision and n,
Kobalt's us per item old -> new (median over the alternations), new/old speed-up with its
range over the alternations, and the best-peer ratio (best peer time / Kobalt time) of the
new and the old invocations (median, with the range for new).
    summary_ab.py <dir with ab.sh's CSVs>"""
import csv, glob, os, re, statistics, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "."
kob = defaultdict(list)    # (cfg, prec, n, v) -> [(rep, us)]
peer = defaultdict(list)   # (cfg, prec, n, v) -> [(rep, best_us, name)]
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    m = re.match(r"(\w+-\w+)-(old|new)-(\d+)\.csv", os.path.basename(f))
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
            o, w = dict(kob.get((cfg, p, n, "old"), [])), dict(kob.get((cfg, p, n, "new"), []))
            if not o or not w:
                continue
            om, wm = statistics.median(o.values()), statistics.median(w.values())
            sp = [o[r] / w[r] for r in o if r in w]
            pn = peer.get((cfg, p, n, "new"), [])
            po = peer.get((cfg, p, n, "old"), [])
            rn = [b / w[r] for r, b, _ in pn if r in w]
            ro = [b / o[r] for r, b, _ in po if r in o]
            names = "/".join(sorted({short(x) for _, _, x in pn}))
            print(f"| {p} | {n} | {om:.4g} | {wm:.4g} | {om / wm:.2f} [{min(sp):.2f}-{max(sp):.2f}] | "
                  f"{statistics.median(rn):.2f} {names} [{min(rn):.2f}-{max(rn):.2f}] | {statistics.median(ro):.2f} |")
