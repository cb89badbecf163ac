#!/usr/bin/env python3
"""Plots bench/results/tvb_paper.csv (CPU seconds per simulated second against n, the
paper's Figure 5 with the all-pairs twin and the frame-based baselines) and the events by
type of the grid (Figure 6) into docs/images/tvb-benchmarks.png.

    python3 scripts/plot_tvb_benchmarks.py [bench/results/tvb_paper.csv] [docs/images/tvb-benchmarks.png]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

source = sys.argv[1] if len(sys.argv) > 1 else "bench/results/tvb_paper.csv"
target = sys.argv[2] if len(sys.argv) > 2 else "docs/images/tvb-benchmarks.png"
rows = list(csv.DictReader(open(source)))

fig, (cost, events) = plt.subplots(1, 2, figsize=(11, 4.2))
labels = {"grid": "grid, unknown trajectories", "all_pairs": "all pairs, unknown trajectories",
          "ballistic": "grid, ballistic (exact)", "frame_60": "frame baseline, dt = 1/60",
          "frame_600": "frame baseline, dt = 1/600"}
for variant, label in labels.items():
    pts = [(int(r["n"]), float(r["cpu_s_per_simulated_s"])) for r in rows if r["variant"] == variant]
    if pts:
        cost.loglog(*zip(*pts), marker="o", label=label)
cost.set_xlabel("spheres n")
cost.set_ylabel("CPU seconds per simulated second")
cost.set_title("Cost against n (paper's Figure 5)")
cost.grid(True, which="both", alpha=0.3)
cost.legend(fontsize=8)

kinds = ["entering", "leaving", "resetting", "bound_collision", "wall"]
grid = [r for r in rows if r["variant"] == "grid"]
for kind in kinds:
    pts = [(int(r["n"]), float(r[kind]) / float(r["simulated_s"])) for r in grid if float(r[kind]) > 0]
    if pts:
        events.loglog(*zip(*pts), marker="o", label=kind.replace("_", " "))
events.set_xlabel("spheres n")
events.set_ylabel("events per simulated second")
events.set_title("Events by type, unknown trajectories (Figure 6)")
events.grid(True, which="both", alpha=0.3)
events.legend(fontsize=8)

fig.tight_layout()
fig.savefig(target, dpi=110)
print("wrote", target)
