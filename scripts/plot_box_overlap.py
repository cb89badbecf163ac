#!/usr/bin/env python3
"""Plots bench/results/box_overlap.csv (kds_bench_box_overlap) into
docs/images/box-overlap-benchmarks.svg: events per collision against n, and certificates
per sphere against n, log-log, one line per broad phase and size spread. Standard library
only (SVG written by hand, scripts/svg_plot.py).

    python3 scripts/plot_box_overlap.py [bench/results/box_overlap.csv] [docs/images/box-overlap-benchmarks.svg]
"""
import csv
import sys

import svg_plot

COLOURS = {"box-overlap": "#d62728", "tvb-grid": "#1f77b4", "all-pairs": "#7f7f7f"}


def by_broad_phase_and_spread(rows, column):
    series = {}
    for r in rows:
        series.setdefault((r["broad_phase"], r["spread"]), []).append((float(r["n"]), float(r[column])))
    return series


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "bench/results/box_overlap.csv"
    target = sys.argv[2] if len(sys.argv) > 2 else "docs/images/box-overlap-benchmarks.svg"
    rows = list(csv.DictReader(open(source, encoding="utf-8")))
    style = svg_plot.colour_of(COLOURS, dashed=lambda key: float(key[1]) >= 5)
    out = svg_plot.start(2)
    svg_plot.panel(out, 0, by_broad_phase_and_spread(rows, "events_per_collision"), "events per sphere collision", style)
    svg_plot.panel(out, svg_plot.W, by_broad_phase_and_spread(rows, "certificates_per_sphere"),
                   "certificates per sphere (mean)", style)
    svg_plot.legend(out, COLOURS, {r["broad_phase"] for r in rows},
                    "solid: similar sizes; dashed: widely varying sizes")
    svg_plot.finish(out, target)


if __name__ == "__main__":
    main()
