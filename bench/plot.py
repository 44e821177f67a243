#!/usr/bin/python3
"""plot.py -- draw kobalt-bench results (CSV from --out) into docs/img/.

    /usr/bin/python3 bench/plot.py results.csv [more.csv ...] [--outdir docs/img]
                                   [--title "machine, load"]

Several CSVs (e.g. one kobalt-bench invocation per routine) are merged; a later file's
line for the same (routine, prec, n) replaces an earlier one. For each precision p:
  speedup-<p>.png   one panel per routine: Kobalt's speed-up over each peer family
                    (peer median time / Kobalt median time) against n, both axes log;
                    thick black: the best peer; the grey band around it is the
                    worst/best case over the repeats (peer min / Kobalt max ..
                    peer max / Kobalt min), i.e. the run's noise. The line at 1 is
                    parity: above it Kobalt is faster.
  bandwidth-<p>.png one panel per routine: the memory floor (each input read once, each
                    output written once, at the copy bandwidth measured at the start of
                    the run) over the median time, in percent, for Kobalt and each peer
                    family; dashed lines at 80 % (goal 4 of issue 3) and 100 %.
A peer family's time is its fastest member (kokkos = best of kokkos_u, kokkos_b).
Needs python3-matplotlib.
"""
import argparse
import csv
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PEERS = ["blas", "kokkos", "xsmm", "eigen", "kobalt3"]
LABELS = {"blas": "OpenBLAS/LAPACK loop", "kokkos": "KokkosBatched", "xsmm": "libxsmm",
          "eigen": "Eigen fixed-size", "kobalt3": "Kobalt 3 calls", "kobalt": "Kobalt"}
COLORS = {"kobalt": "k", "blas": "tab:blue", "kokkos": "tab:orange", "xsmm": "tab:green",
          "eigen": "tab:red", "kobalt3": "tab:purple"}
# Panel order: the order of the routine list.
ORDER = ["gemm", "gemv", "trsv", "trsm", "getrf", "getrf_np", "getrs", "fused", "fused_np"]


def load(paths):
    """(routine, prec) -> n -> contender -> row; the copy bandwidth of each (routine, prec)."""
    data = defaultdict(dict)
    bw = defaultdict(set)
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                key = (row["routine"], row["prec"])
                n = int(row["n"])
                bw[key].add(round(float(row["copy_bw_GBps"]), 1))
                cont = data[key].setdefault(n, {})
                if row["contender"] == "kobalt":  # a new measurement of this line
                    cont.clear()
                if row["ok"] != "1" or float(row["median_s"]) <= 0:
                    continue
                cont[row["contender"]] = row
    return data, bw


def family(cont, fam):
    """The fastest member row of a peer family, or None."""
    rows = [r for name, r in cont.items() if name == fam or name.startswith(fam + "_")]
    return min(rows, key=lambda r: float(r["median_s"])) if rows else None


def best_peer(cont):
    rows = [r for r in (family(cont, f) for f in PEERS if f != "kobalt3") if r]
    return min(rows, key=lambda r: float(r["median_s"])) if rows else None


def routines_of(data, prec):
    rs = [r for (r, p) in data if p == prec]
    return sorted(rs, key=lambda r: ORDER.index(r) if r in ORDER else len(ORDER))


def log2_axis(ax, ns):
    ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns], fontsize=6)
    ax.minorticks_off()
    ax.set_xlabel("n", fontsize=8)
    ax.grid(True, which="major", lw=0.3, alpha=0.5)


def plain_log_y(ax, ticks):
    """Log y axis with readable tick labels (0.5, 1, 2 ... rather than 10^0)."""
    ax.set_yscale("log")
    lo, hi = ax.get_ylim()
    ax.set_yticks([t for t in ticks if lo <= t <= hi])
    ax.set_yticklabels([f"{t:g}" for t in ticks if lo <= t <= hi])
    ax.minorticks_off()


def speedup_panel(ax, per_n, title):
    ns = sorted(n for n in per_n if "kobalt" in per_n[n])
    for fam in PEERS:
        xs, ys = [], []
        for n in ns:
            r = family(per_n[n], fam)
            if r:
                xs.append(n)
                ys.append(float(r["median_s"]) / float(per_n[n]["kobalt"]["median_s"]))
        if xs:
            ax.plot(xs, ys, marker="o", ms=2.5, lw=0.9, color=COLORS[fam], label=LABELS[fam])
    xs, ys, lo, hi = [], [], [], []
    for n in ns:
        r = best_peer(per_n[n])
        if not r:
            continue
        k = per_n[n]["kobalt"]
        xs.append(n)
        ys.append(float(r["median_s"]) / float(k["median_s"]))
        lo.append(float(r["min_s"]) / float(k["max_s"]))
        hi.append(float(r["max_s"]) / float(k["min_s"]))
    if xs:
        ax.fill_between(xs, lo, hi, color="0.6", alpha=0.35, lw=0)
        ax.plot(xs, ys, color="k", lw=2.0, label="best peer")
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    plain_log_y(ax, [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200])
    log2_axis(ax, ns)
    ax.set_title(title, fontsize=9)
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(fontsize=6, loc="best")


def bandwidth_panel(ax, per_n, title):
    ns = sorted(n for n in per_n if "kobalt" in per_n[n])
    for fam in ["kobalt"] + PEERS:
        xs, ys = [], []
        for n in ns:
            r = per_n[n].get("kobalt") if fam == "kobalt" else family(per_n[n], fam)
            if r:
                xs.append(n)
                ys.append(float(r["pct_bw_floor"]))
        if xs:
            ax.plot(xs, ys, marker="o", ms=2.5, lw=2.0 if fam == "kobalt" else 0.9,
                    color=COLORS[fam], label=LABELS[fam])
    ax.axhline(80, color="r", lw=0.8, ls="--")
    ax.axhline(100, color="k", lw=0.6, ls=":")
    plain_log_y(ax, [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 80, 100, 200, 500])
    log2_axis(ax, ns)
    ax.set_ylabel("% of copy-bandwidth floor", fontsize=7)
    ax.set_title(title, fontsize=9)
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(fontsize=6, loc="best")


def save_small(fig, path):
    """PNG with a 64-colour palette: line plots lose nothing visible and the file stays
    well under 150 KB, small enough to commit."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=64).save(path, optimize=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--outdir", default=os.path.join(os.path.dirname(__file__), "..", "docs", "img"))
    ap.add_argument("--title", default="", help="machine / load note for the figure title")
    a = ap.parse_args()
    data, bw = load(a.csv)
    os.makedirs(a.outdir, exist_ok=True)
    for prec in sorted({p for (_, p) in data}):
        routines = routines_of(data, prec)
        cols = 3
        rows = (len(routines) + cols - 1) // cols
        figs = {}
        for kind in ("speedup", "bandwidth"):
            fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.3 * rows), squeeze=False)
            for idx, r in enumerate(routines):
                ax = axes[idx // cols][idx % cols]
                bws = "/".join(f"{x:g}" for x in sorted(bw[(r, prec)]))
                if kind == "speedup":
                    speedup_panel(ax, data[(r, prec)], f"{prec}{r}: Kobalt speed-up (peer / Kobalt time)")
                else:
                    bandwidth_panel(ax, data[(r, prec)], f"{prec}{r} (copy bw {bws} GB/s)")
            for idx in range(len(routines), rows * cols):
                axes[idx // cols][idx % cols].axis("off")
            head = {"speedup": "Kobalt speed-up over each peer (> 1: Kobalt faster)",
                    "bandwidth": "percent of the copy-bandwidth memory floor"}[kind]
            fig.suptitle(f"kobalt-bench, {prec}: {head}" + (f" -- {a.title}" if a.title else ""),
                         fontsize=10)
            fig.tight_layout(rect=(0, 0, 1, 0.97))
            figs[kind] = fig
        for kind, fig in figs.items():
            path = os.path.join(a.outdir, f"{kind}-{prec}.png")
            save_small(fig, path)
            plt.close(fig)
            print("wrote", path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
