#!/usr/bin/python3
"""plot.py -- draw kobalt-bench results (CSV from --out) into docs/img/.

    /usr/bin/python3 bench/plot.py results.csv [--outdir docs/img]

For each precision, one figure with a panel per routine:
  speedup-<p>.png   Kobalt speed-up over each peer (peer time / Kobalt time) vs n,
                    log scale; the line at 1 is parity (above: Kobalt faster)
  bandwidth-<p>.png Kobalt's memory floor / Kobalt time (percent of the measured copy
                    bandwidth) vs n
Needs python3-matplotlib.
"""
import argparse
import csv
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FAMILIES = ["blas", "kokkos", "xsmm", "eigen", "kobalt3"]
LABELS = {"blas": "OpenBLAS/LAPACK loop", "kokkos": "KokkosBatched", "xsmm": "libxsmm",
          "eigen": "Eigen fixed-size", "kobalt3": "Kobalt 3 calls"}


def load(path):
    data = defaultdict(dict)  # (routine, prec) -> n -> contender -> row
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["ok"] != "1" or float(row["median_s"]) <= 0:
                continue
            data[(row["routine"], row["prec"])].setdefault(int(row["n"]), {})[row["contender"]] = row
    return data


def family_time(cont, fam):
    ts = [float(r["median_s"]) for name, r in cont.items() if name == fam or name.startswith(fam + "_")]
    return min(ts) if ts else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--outdir", default=os.path.join(os.path.dirname(__file__), "..", "docs", "img"))
    a = ap.parse_args()
    data = load(a.csv)
    os.makedirs(a.outdir, exist_ok=True)
    for prec in sorted({p for (_, p) in data}):
        routines = [r for (r, p) in data if p == prec]
        cols = 3
        rows = (len(routines) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        fig2, axes2 = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        for idx, r in enumerate(routines):
            ax, ax2 = axes[idx // cols][idx % cols], axes2[idx // cols][idx % cols]
            per_n = data[(r, prec)]
            ns = sorted(per_n)
            for fam in FAMILIES:
                xs, ys = [], []
                for n in ns:
                    k = per_n[n].get("kobalt")
                    t = family_time(per_n[n], fam)
                    if k and t:
                        xs.append(n)
                        ys.append(t / float(k["median_s"]))
                if xs:
                    ax.plot(xs, ys, marker="o", ms=3, label=LABELS[fam])
            ax.axhline(1.0, color="k", lw=0.8)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"{prec}{r}: Kobalt speed-up over peer")
            ax.set_xlabel("n")
            ax.legend(fontsize=7)
            xs = [n for n in ns if "kobalt" in per_n[n]]
            ax2.plot(xs, [float(per_n[n]["kobalt"]["pct_bw_floor"]) for n in xs], marker="o", ms=3)
            ax2.axhline(80, color="r", lw=0.8, ls="--")
            ax2.set_xscale("log", base=2)
            ax2.set_title(f"{prec}{r}: % of copy-bandwidth floor")
            ax2.set_xlabel("n")
        for idx in range(len(routines), rows * cols):
            axes[idx // cols][idx % cols].axis("off")
            axes2[idx // cols][idx % cols].axis("off")
        fig.tight_layout()
        fig2.tight_layout()
        fig.savefig(os.path.join(a.outdir, f"speedup-{prec}.png"), dpi=90)
        fig2.savefig(os.path.join(a.outdir, f"bandwidth-{prec}.png"), dpi=90)
        print("wrote", os.path.join(a.outdir, f"speedup-{prec}.png"), os.path.join(a.outdir, f"bandwidth-{prec}.png"))


if __name__ == "__main__":
    main()
