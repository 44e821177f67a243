#!/usr/bin/env python3
"""table.py -- old/new speed-up per case from other_cases.cpp's outputs (old-R.txt, new-R.txt):
median over rounds of us per item, and the median [range] of the per-round ratios old/new."""
import glob, os, statistics as st, sys
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__)
t = {}
for f in glob.glob(os.path.join(d, "*-*.txt")):
    arm, rnd = os.path.basename(f)[:-4].split("-")
    if arm not in ("old", "new"):
        continue
    for line in open(f):
        w = line.split()
        case = " ".join(w[:5])
        t.setdefault(case, {}).setdefault(arm, {})[rnd] = {"d": float(w[6]), "s": float(w[8])}
print("| layout side uplo trans n | d us/item old -> new | d new/old | s us/item old -> new | s new/old |")
print("|---|---|---|---|---|")
for case in t:
    o, n = t[case]["old"], t[case]["new"]
    cells = [case]
    for p in ("d", "s"):
        r = [o[k][p] / n[k][p] for k in o if k in n]
        cells += [f"{st.median(v[p] for v in o.values()):.3f} -> {st.median(v[p] for v in n.values()):.3f}",
                  f"{st.median(r):.2f} [{min(r):.2f}-{max(r):.2f}]"]
    print("| " + " | ".join(cells) + " |")
