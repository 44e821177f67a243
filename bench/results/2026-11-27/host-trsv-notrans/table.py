#!/usr/bin/env python3
"""table.py -- the trsv direct-solve A/B tables (branch trsvdirect) from the CSVs that ab.sh
writes (<cfg>-mem-<arm>-<round>.csv).

    table.py DIR OLD NEW [ARM...]

Per configuration, precision and n: ms per call (the whole batch of --mb 64, median_s of the
kobalt line) for OLD and NEW, NEW's speed-up over OLD (median of the per-round ratios, with
their range), the ratio best peer / Kobalt (best peer = the fastest of the other contenders
in the same invocation) for NEW (median [range]) and OLD (median), and for every further ARM
its speed-up over NEW (median [range]). Medians over the rounds."""
import csv, glob, os, re, statistics as st, sys
from collections import defaultdict

d, OLD, NEW = sys.argv[1:4]
extra = sys.argv[4:]
call = defaultdict(dict)   # (cfg, prec, n, arm) -> {round: s per call}
ratio = defaultdict(dict)  # (cfg, prec, n, arm) -> {round: best peer / kobalt}
peer = defaultdict(set)
for f in sorted(glob.glob(os.path.join(d, "*.csv"))):
    m = re.match(r"(\w+)-mem-(\w+)-(\d+)\.csv", os.path.basename(f))
    if not m:
        continue
    cfg, arm, rnd = m.group(1), m.group(2), int(m.group(3))
    rows = defaultdict(dict)
    for r in csv.DictReader(open(f)):
        if r["ok"] == "1":
            rows[(r["prec"], int(r["n"]))][r["contender"]] = float(r["median_s"])
    for (p, n), c in rows.items():
        if "kobalt" not in c:
            continue
        call[(cfg, p, n, arm)][rnd] = c["kobalt"]
        others = {k: v for k, v in c.items() if k != "kobalt"}
        if others:
            best = min(others, key=others.get)
            ratio[(cfg, p, n, arm)][rnd] = others[best] / c["kobalt"]
            peer[(cfg, p, n, arm)].add({"blas": "B", "kokkos_u": "Ku", "kokkos_b": "Kb", "kokkos": "K", "eigen": "E"}.get(best, best))

def rng(v):
    return f"{st.median(v):.2f} [{min(v):.2f}-{max(v):.2f}]"

for cfg in sorted({k[0] for k in call}):
    head = f"| prec | n | {OLD} ms/call | {NEW} ms/call | {NEW}/{OLD} speed-up | best peer / Kobalt, {NEW} | best peer / Kobalt, {OLD} |"
    head += "".join(f" {a} vs {NEW} |" for a in extra)
    print(f"\n{cfg}\n\n{head}\n|" + "---|" * (head.count("|") - 1))
    for p in ("d", "s"):
        for n in sorted({k[2] for k in call if k[0] == cfg and k[1] == p}):
            o, w = call.get((cfg, p, n, OLD), {}), call.get((cfg, p, n, NEW), {})
            if not o or not w:
                continue
            sp = [o[r] / w[r] for r in o if r in w]
            rn, ro = list(ratio[(cfg, p, n, NEW)].values()), list(ratio[(cfg, p, n, OLD)].values())
            line = (f"| {p} | {n} | {st.median(o.values()) * 1e3:.3f} | {st.median(w.values()) * 1e3:.3f} | "
                    f"{rng(sp)} | {rng(rn)} {'/'.join(sorted(peer[(cfg, p, n, NEW)]))} | {st.median(ro):.2f} |")
            for a in extra:
                x = call.get((cfg, p, n, a), {})
                s2 = [w[r] / x[r] for r in x if r in w]
                line += f" {rng(s2)} |" if s2 else " - |"
            print(line)
