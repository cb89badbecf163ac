#!/usr/bin/env python3
"""Plots a CSV of kds_bench_guards_cones, log-log, one line per broad phase (SVG written by
hand, scripts/svg_plot.py; standard library only).

Asteroid fields (bench/results/guards_cones.csv, guards_cones_swarms.csv): live
certificates (mean over the run) and CPU time against n. The nested field
(bench/results/guards_cones_nested.csv, "Growing sigma" in docs/structures/guards-cones.md)
gets a third panel between them: what each structure keeps (box overlap's overlapping box
pairs, guards-cones' memberships: solid) and the candidate pairs the world certifies
(dashed), with guides of slope 1 and 2.

    python3 scripts/plot_guards_cones.py [bench/results/guards_cones.csv] [docs/images/guards-cones-benchmarks.svg]
    python3 scripts/plot_guards_cones.py bench/results/guards_cones_nested.csv docs/images/guards-cones-nested.svg
"""
import csv
import sys

import svg_plot

COLOURS = {"guards-cones": "#2ca02c", "guards-cones-lists": "#9467bd", "box-overlap": "#d62728", "tvb-grid": "#1f77b4", "all-pairs": "#7f7f7f"}
SLOPES = ((1, "~ n"), (2, "~ n^2"))


def by_broad_phase(rows, column):
    series = {}
    for r in rows:
        series.setdefault(r["broad_phase"], []).append((float(r["n"]), float(r[column])))
    return series


def kept_and_candidates(rows):
    """(broad phase, "kept") -> box pairs or memberships, mean over the run; (broad phase,
    "candidates") -> candidate pairs at the end."""
    kept = {"box-overlap": "overlap_pairs_mean", "guards-cones": "memberships_mean"}
    series = {}
    for r in rows:
        bp, n = r["broad_phase"], float(r["n"])
        if bp in kept:
            series.setdefault((bp, "kept"), []).append((n, float(r[kept[bp]])))
        series.setdefault((bp, "candidates"), []).append((n, float(r["candidate_pairs"])))
    return series


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "bench/results/guards_cones.csv"
    target = sys.argv[2] if len(sys.argv) > 2 else "docs/images/guards-cones-benchmarks.svg"
    rows = list(csv.DictReader(open(source, encoding="utf-8")))
    present = {r["broad_phase"] for r in rows}
    style = svg_plot.colour_of(COLOURS)
    if all(r["field"] != "nested" for r in rows):
        out = svg_plot.start(2)
        svg_plot.panel(out, 0, by_broad_phase(rows, "mean_certificates"), "live certificates (mean over the run)", style)
        svg_plot.panel(out, svg_plot.W, by_broad_phase(rows, "cpu_s"), "CPU seconds (to 0.2 collisions per body)", style)
        svg_plot.legend(out, COLOURS, present, "asteroid field (bench/results/guards_cones*.csv)")
    else:
        ends = {float(r["simulated_time"]) for r in rows}
        stretch = (f"until t = {ends.pop():g}" if len(ends) == 1 else
                   f"to {max(float(r['collisions']) / float(r['n']) for r in rows):.2g} collisions per body")
        ticks = sorted({float(r["n"]) for r in rows})
        out = svg_plot.start(3)
        svg_plot.panel(out, 0, by_broad_phase(rows, "mean_certificates"), "live certificates (mean over the run)", style,
                       SLOPES, ticks)
        svg_plot.panel(out, svg_plot.W, kept_and_candidates(rows), "box pairs, memberships; candidate pairs",
                       svg_plot.colour_of(COLOURS, dashed=lambda key: key[1] == "candidates"), SLOPES, ticks)
        svg_plot.panel(out, 2 * svg_plot.W, by_broad_phase(rows, "cpu_s"), f"CPU seconds ({stretch})", style, (), ticks)
        svg_plot.legend(out, COLOURS, present, "nested boxes, sigma growing with n; middle: solid what the structure "
                        "keeps, dashed the candidate pairs")
    svg_plot.finish(out, target)


if __name__ == "__main__":
    main()
