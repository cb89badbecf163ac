#!/usr/bin/env python3
"""Figures of the sorted-list and hard-sphere benchmarks (docs/benchmarks.md), as SVG:

  sorted-list.svg   events per CPU second against n, filtered and floating; swaps per
                    point against the expected n t / 3 swaps of the scene (efficiency)
  hard-spheres.svg  collisions per CPU second against n, per volume fraction and mode

    python3 scripts/plot_benchmarks.py CSV_DIR OUT_DIR

CSV_DIR holds sorted_list.csv and tvb_hard_spheres.csv (bench/results, or the folder of
`kds bench --out`); a missing CSV is skipped with a note.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

source, target = sys.argv[1], sys.argv[2]
os.makedirs(target, exist_ok=True)


def rows(name):
    path = os.path.join(source, name)
    if not os.path.exists(path):
        print(f"plot_benchmarks: no {path}: skipped")
        return None
    return list(csv.DictReader(open(path)))


def save(fig, name):
    path = os.path.join(target, name)
    fig.tight_layout()
    # No date in the SVG, so that regenerating unchanged data changes no file.
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)
    print("wrote", path)


sorted_list = rows("sorted_list.csv")
if sorted_list:
    fig, (speed, swaps) = plt.subplots(1, 2, figsize=(10, 3.8))
    for mode in ("filtered", "floating"):
        pts = sorted((int(r["n"]), float(r["events_per_cpu_second"])) for r in sorted_list if r["mode"] == mode)
        if pts:
            speed.loglog(*zip(*pts), marker="o", label=mode)
    speed.set_xlabel("points n")
    speed.set_ylabel("events per CPU second")
    speed.set_title("Kinetic sorted list: speed")
    speed.grid(True, which="both", alpha=0.3)
    speed.legend(fontsize=8)
    pts = sorted((int(r["n"]), float(r["swaps_per_point"]), float(r["horizon"]))
                 for r in sorted_list if r["mode"] == "filtered")
    if pts:
        n, measured, horizon = zip(*pts)
        swaps.semilogx(n, measured, marker="o", label="measured swaps per point")
        swaps.semilogx(n, [t / 3 for t in horizon], linestyle="--", label="expected: t / 3 (uniform velocities in [-1, 1])")
        swaps.set_ylim(0, 1.4 * max(max(measured), max(horizon) / 3))
    swaps.set_xlabel("points n")
    swaps.set_ylabel("events per point")
    swaps.set_title("Efficiency: events against the scene's swaps")
    swaps.grid(True, which="both", alpha=0.3)
    swaps.legend(fontsize=8, loc="lower right")
    save(fig, "sorted-list.svg")

hard = rows("tvb_hard_spheres.csv")
if hard:
    fig, ax = plt.subplots(figsize=(6, 3.8))
    for k, phi in enumerate(sorted({r["phi"] for r in hard}, key=float)):
        for mode in ("filtered", "floating"):
            pts = sorted((int(r["n"]), float(r["collisions_per_cpu_s"])) for r in hard
                         if r["phi"] == phi and r["mode"] == mode)
            if pts:
                ax.loglog(*zip(*pts), marker="o", color=f"C{k}", linestyle="-" if mode == "filtered" else ":",
                          label=f"volume fraction {phi}, {mode}")
    ax.set_xlabel("spheres n")
    ax.set_ylabel("collisions per CPU second")
    ax.set_title("Hard spheres, ballistic, tvb-grid")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    save(fig, "hard-spheres.svg")
