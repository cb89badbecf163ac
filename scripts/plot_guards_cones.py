#!/usr/bin/env python3
"""Plots bench/results/guards_cones.csv (kds_bench_guards_cones) into
docs/images/guards-cones-benchmarks.svg: live certificates (mean over the run) and CPU
time against n, log-log, one line per broad phase, on the asteroid field. Standard library
only (SVG written by hand), as scripts/plot_box_overlap.py.

    python3 scripts/plot_guards_cones.py [bench/results/guards_cones.csv] [docs/images/guards-cones-benchmarks.svg]
"""
import csv
import math
import sys

COLOURS = {"guards-cones": "#2ca02c", "box-overlap": "#d62728", "tvb-grid": "#1f77b4", "all-pairs": "#7f7f7f"}
W, H, PAD = 420, 300, 55


def panel(out, x0, rows, column, title):
    series = {}
    for r in rows:
        series.setdefault(r["broad_phase"], []).append((float(r["n"]), float(r[column])))
    xs = [x for s in series.values() for x, _ in s]
    ys = [y for s in series.values() for _, y in s if y > 0]
    lx0, lx1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    if ly1 == ly0:
        ly1 += 1

    def px(x):
        return x0 + PAD + (math.log10(x) - lx0) / (lx1 - lx0) * (W - 2 * PAD)

    def py(y):
        return H - PAD - (math.log10(y) - ly0) / (ly1 - ly0) * (H - 2 * PAD)

    out.append(f'<rect x="{x0 + PAD}" y="{PAD}" width="{W - 2 * PAD}" height="{H - 2 * PAD}" fill="none" stroke="black"/>')
    out.append(f'<text x="{x0 + PAD}" y="{PAD - 15}" font-weight="bold">{title}</text>')
    for e in range(lx0, lx1 + 1):
        out.append(f'<text x="{px(10 ** e) - 12}" y="{H - PAD + 18}">1e{e}</text>')
    for e in range(ly0, ly1 + 1):
        out.append(f'<text x="{x0 + 8}" y="{py(10 ** e) + 4}">1e{e}</text>')
        out.append(f'<line x1="{x0 + PAD}" y1="{py(10 ** e)}" x2="{x0 + W - PAD}" y2="{py(10 ** e)}" stroke="#ddd"/>')
    out.append(f'<text x="{x0 + W / 2 - 5}" y="{H - 12}">n</text>')
    for bp, pts in sorted(series.items()):
        pts = sorted(p for p in pts if p[1] > 0)
        if not pts:
            continue
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS.get(bp, "black")}" stroke-width="2"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{COLOURS.get(bp, "black")}"/>')


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "bench/results/guards_cones.csv"
    target = sys.argv[2] if len(sys.argv) > 2 else "docs/images/guards-cones-benchmarks.svg"
    rows = list(csv.DictReader(open(source, encoding="utf-8")))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H + 40}" font-family="sans-serif" '
           'font-size="12">', '<rect width="100%" height="100%" fill="white"/>']
    panel(out, 0, rows, "mean_certificates", "live certificates (mean over the run)")
    panel(out, W, rows, "cpu_s", "CPU seconds (to 0.2 collisions per body)")
    y = H + 15
    x = PAD
    for bp, colour in COLOURS.items():
        if any(r["broad_phase"] == bp for r in rows):
            out.append(f'<line x1="{x}" y1="{y}" x2="{x + 25}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
            out.append(f'<text x="{x + 30}" y="{y + 4}">{bp}</text>')
            x += 130
    out.append(f'<text x="{x}" y="{y + 4}">asteroid field (bench/results/guards_cones*.csv)</text>')
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
