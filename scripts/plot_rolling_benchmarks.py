#!/usr/bin/env python3
"""Plots bench/results/rolling_balls.csv (kds_bench_rolling_balls) into
docs/images/rolling-benchmarks.svg: certificates / (n log2 n) and events per ball
collision against n, one line per layout of the sorted lists. Standard library only
(a hand-written SVG with logarithmic n axes).

    python3 scripts/plot_rolling_benchmarks.py [bench/results/rolling_balls.csv] [docs/images/rolling-benchmarks.svg]
"""
import csv
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
source = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / "results" / "rolling_balls.csv"
target = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "docs" / "images" / "rolling-benchmarks.svg"
rows = list(csv.DictReader(open(source)))
COLOURS = {"rolling-tree": "#2b5d9b", "rolling-tree-global": "#c0392b"}
PW, PH, MX, MY = 330, 240, 70, 40  # one panel's plot area and margins


def panel(x0, title, column, log_y):
    series = {}
    for r in rows:
        series.setdefault(r["layout"], []).append((float(r["n"]), float(r[column])))
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [y for pts in series.values() for _, y in pts if y > 0]
    lx0, lx1 = math.floor(math.log10(min(xs))), math.ceil(math.log10(max(xs)))
    lx1 = max(lx1, lx0 + 1)
    if log_y:
        ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
        ly1 = max(ly1, ly0 + 1)
    else:
        ly0, ly1 = 0.0, max(ys) * 1.15

    def fx(x):
        return x0 + MX + PW * (math.log10(x) - lx0) / (lx1 - lx0)

    def fy(y):
        v = (math.log10(y) - ly0) / (ly1 - ly0) if log_y else (y - ly0) / (ly1 - ly0)
        return MY + PH * (1 - v)

    out = [f'<rect x="{x0 + MX}" y="{MY}" width="{PW}" height="{PH}" fill="none" stroke="#333"/>',
           f'<text x="{x0 + MX + PW / 2}" y="{MY - 12}" text-anchor="middle" font-size="14">{title}</text>',
           f'<text x="{x0 + MX + PW / 2}" y="{MY + PH + 36}" text-anchor="middle" font-size="12">balls n</text>']
    for e in range(lx0, lx1 + 1):
        x = fx(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{MY + PH}" x2="{x:.1f}" y2="{MY + PH + 5}" stroke="#333"/>')
        out.append(f'<text x="{x:.1f}" y="{MY + PH + 18}" text-anchor="middle" font-size="11">1e{e}</text>')
    ticks = [10 ** e for e in range(int(ly0), int(ly1) + 1)] if log_y else [ly1 * k / 5 for k in range(6)]
    for t in ticks:
        y = fy(t)
        label = f"1e{int(round(math.log10(t)))}" if log_y else f"{t:.2g}"
        out.append(f'<line x1="{x0 + MX - 5}" y1="{y:.1f}" x2="{x0 + MX}" y2="{y:.1f}" stroke="#333"/>')
        out.append(f'<text x="{x0 + MX - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{label}</text>')
    for k, (layout, pts) in enumerate(sorted(series.items())):
        pts.sort()
        colour = COLOURS.get(layout, "#333")
        path = " ".join(f"{fx(x):.1f},{fy(y):.1f}" for x, y in pts if y > 0)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in pts:
            if y > 0:
                out.append(f'<circle cx="{fx(x):.1f}" cy="{fy(y):.1f}" r="3.5" fill="{colour}"/>')
        out.append(f'<text x="{x0 + MX + 8}" y="{MY + 18 + 16 * k}" font-size="12" fill="{colour}">{layout}</text>')
    return out


parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * (PW + MX + 20)}" height="{PH + MY + 60}" '
         'font-family="sans-serif">', '<rect width="100%" height="100%" fill="white"/>']
parts += panel(0, "certificates / (n log2 n)", "certificates_per_nlog2n", False)
parts += panel(PW + MX + 20, "events per ball collision", "events_per_collision", True)
parts.append("</svg>")
target.write_text("\n".join(parts) + "\n")
print(f"wrote {target}")
