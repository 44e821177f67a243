#!/usr/bin/env python3
"""ab_summary.py -- best-peer ratios of an A/B series of kobalt-bench CSV files.

Usage: ab_summary.py DIR   (DIR holds A_<k>.csv and B_<k>.csv, k = 1, 2, ..., written by
alternating kobalt-bench invocations; A = the old path, B = the new one).

For every routine, precision and n, per invocation: ratio = best peer's median time /
kobalt's median time (peers: every contender but kobalt and kobalt3 whose check passed).
Prints, as a markdown table, the median over the invocations of each side with its
range, and the median over rounds of kobalt's A time / B time (speed-up of the change).
"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict


def load(path):
    runs = defaultdict(dict)  # (routine, prec, n) -> contender -> median_s
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["ok"] != "1":
                continue
            runs[(r["routine"], r["prec"], int(r["n"]))][r["contender"]] = float(r["median_s"])
    return runs


def main():
    d = sys.argv[1]
    sides = {s: [load(p) for p in sorted(glob.glob(os.path.join(d, f"{s}_*.csv")))] for s in "AB"}
    keys = sorted(set().union(*[set(r) for s in "AB" for r in sides[s]]),
                  key=lambda k: (k[0], k[1], k[2]))
    print("| routine | n | A (old) ratio, median [range] | B (new) ratio, median [range] | "
          "best peer (B runs) | B speed-up over A, median [range] |")
    print("|---|---|---|---|---|---|")
    for k in keys:
        cols, best_names = [], defaultdict(int)
        for s in "AB":
            rat = []
            for run in sides[s]:
                c = run.get(k)
                if not c or "kobalt" not in c:
                    continue
                peers = {n: t for n, t in c.items() if n not in ("kobalt", "kobalt3")}
                if not peers:
                    continue
                name = min(peers, key=peers.get)
                if s == "B":
                    best_names[name.split("_")[0]] += 1
                rat.append(peers[name] / c["kobalt"])
            cols.append(f"{statistics.median(rat):.2f} [{min(rat):.2f}-{max(rat):.2f}]" if rat else "-")
        sp = [a[k]["kobalt"] / b[k]["kobalt"] for a, b in zip(sides["A"], sides["B"])
              if k in a and k in b and "kobalt" in a[k] and "kobalt" in b[k]]
        spc = f"{statistics.median(sp):.2f} [{min(sp):.2f}-{max(sp):.2f}]" if sp else "-"
        best = max(best_names, key=best_names.get) if best_names else "-"
        print(f"| {k[1]}{k[0]} | {k[2]} | {cols[0]} | {cols[1]} | {best} | {spc} |")


if __name__ == "__main__":
    main()
