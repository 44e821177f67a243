#!/usr/bin/python3
"""summary.py -- markdown tables from kobalt-bench CSVs (the figures behind the plots).

    /usr/bin/python3 bench/summary.py results/*.csv [--vs best|blas|kobalt3] [--what ratio|bw|spread]

One row per routine and precision, one column per n. Cells:
  --what ratio  (default) peer median time / Kobalt median time; --vs best: the fastest
                peer family (its name abbreviated after the number: B OpenBLAS/LAPACK,
                K KokkosBatched, X libxsmm, E Eigen), --vs blas / kobalt3: that family
  --what bw     Kobalt's percent of the copy-bandwidth floor
  --what spread Kobalt's (max - min) / median over the repeats, percent
  --what bound  the largest ratio over the --vs peer that any code could reach on this
                machine: the peer's time over the bandwidth floor's time (Kobalt's time x
                its percent of the floor), i.e. the ratio of a Kobalt that ran at 100 %
                of the measured copy bandwidth
Same merging rule as plot.py (a later file's line replaces an earlier one).
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot import ORDER, best_peer, family, load  # noqa: E402

SHORT = {"blas": "B", "kokkos": "K", "xsmm": "X", "eigen": "E"}


def cell(cont, vs, what):
    k = cont.get("kobalt")
    if not k:
        return "-"
    km = float(k["median_s"])
    if what == "bw":
        return f"{float(k['pct_bw_floor']):.0f}"
    if what == "bound":
        r = best_peer(cont) if vs == "best" else family(cont, vs)
        floor_s = km * float(k["pct_bw_floor"]) / 100
        return f"{float(r['median_s']) / floor_s:.1f}" if r and floor_s > 0 else "-"
    if what == "spread":
        return f"{(float(k['max_s']) - float(k['min_s'])) / km * 100:.0f}"
    r = best_peer(cont) if vs == "best" else family(cont, vs)
    if not r:
        return "-"
    tag = ""
    if vs == "best":
        tag = " " + SHORT[r["contender"].split("_")[0]]
    return f"{float(r['median_s']) / km:.2f}{tag}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--vs", default="best")
    ap.add_argument("--what", default="ratio", choices=["ratio", "bw", "spread", "bound"])
    a = ap.parse_args()
    data, _ = load(a.csv)
    ns = sorted({n for per_n in data.values() for n in per_n})
    print("| | " + " | ".join(f"n={n}" for n in ns) + " |")
    print("|---" * (len(ns) + 1) + "|")
    keys = sorted(data, key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else 99, k[1]))
    for (r, p) in keys:
        cells = [cell(data[(r, p)][n], a.vs, a.what) if n in data[(r, p)] else "" for n in ns]
        if all(c in ("", "-") for c in cells):
            continue
        print(f"| {p}{r} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
