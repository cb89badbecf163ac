#!/usr/bin/env python3
"""Plots the event-cost benchmark (issue 8) as an SVG written by hand (no plotting library
needed): hard-sphere collisions per CPU second, sorted-list events per CPU second and
memory per hard sphere against n, kds beside the plain floating-point baselines and, when
its CSV is given, FSmallenburg/EDMD; dashed lines are the issue's goals.

    python3 scripts/plot_event_cost.py docs/benchmarks/event-cost-<machine>.csv
            [--edmd docs/benchmarks/edmd-<machine>.csv] [--out docs/images/event-cost.svg]
"""
import argparse
import csv
import math

COLOURS = {"kds": "#c0392b", "kds_hard_spheres": "#8e44ad", "kds_linear": "#d4ac0d", "kds_floating": "#e67e22",
           "baseline": "#2471a3", "edmd": "#27ae60"}
LABELS = {"kds": "kds (exact)", "kds_hard_spheres": "kds hard-sphere path (exact)",
          "kds_linear": "kds linear sorted list (exact)", "kds_floating": "kds, floating mode",
          "baseline": "plain floating code", "edmd": "EDMD (Smallenburg)"}
LEGEND_PER_ROW = 4
W, H = 330, 260          # one panel
LEFT, RIGHT, TOP, BOTTOM = 62, 12, 30, 44


def decades(lo, hi):
    return list(range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1))


def panel(x0, title, ylabel, series, goals):
    """series: {code: [(n, value)]}; goals: [(value, label)]. Returns SVG elements."""
    xs = [n for pts in series.values() for n, _ in pts]
    ys = [v for pts in series.values() for _, v in pts] + [g for g, _ in goals]
    if not xs:
        return []
    xd, yd = decades(min(xs), max(xs)), decades(min(ys), max(ys))
    if len(xd) < 2:
        xd.append(xd[0] + 1)
    if len(yd) < 2:
        yd.append(yd[0] + 1)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(n):
        return x0 + LEFT + pw * (math.log10(n) - xd[0]) / (xd[-1] - xd[0])

    def py(v):
        return TOP + ph * (1 - (math.log10(v) - yd[0]) / (yd[-1] - yd[0]))

    out = [f'<text x="{x0 + LEFT + pw / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>',
           f'<rect x="{x0 + LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>']
    for d in xd:
        out.append(f'<line x1="{px(10 ** d)}" y1="{TOP}" x2="{px(10 ** d)}" y2="{TOP + ph}" stroke="#ddd"/>')
        out.append(f'<text x="{px(10 ** d)}" y="{TOP + ph + 14}" text-anchor="middle">1e{d}</text>')
    for d in yd:
        out.append(f'<line x1="{x0 + LEFT}" y1="{py(10 ** d)}" x2="{x0 + LEFT + pw}" y2="{py(10 ** d)}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 + LEFT - 4}" y="{py(10 ** d) + 4}" text-anchor="end">1e{d}</text>')
    out.append(f'<text x="{x0 + LEFT + pw / 2}" y="{H - 10}" text-anchor="middle">n</text>')
    out.append(f'<text transform="translate({x0 + 14},{TOP + ph / 2}) rotate(-90)" text-anchor="middle">{ylabel}</text>')
    for value, label in goals:
        out.append(f'<line x1="{x0 + LEFT}" y1="{py(value)}" x2="{x0 + LEFT + pw}" y2="{py(value)}" '
                   f'stroke="#888" stroke-dasharray="5,4"/>')
        out.append(f'<text x="{x0 + LEFT + pw - 4}" y="{py(value) - 4}" text-anchor="end" fill="#666">{label}</text>')
    for code, pts in series.items():
        pts = sorted(pts)
        colour = COLOURS[code]
        path = " ".join(f"{px(n):.1f},{py(v):.1f}" for n, v in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out += [f'<circle cx="{px(n):.1f}" cy="{py(v):.1f}" r="3.5" fill="{colour}"/>' for n, v in pts]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--edmd")
    parser.add_argument("--out", default="docs/images/event-cost.svg")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))

    def series(work, column, codes):
        s = {}
        for r in rows:
            if r["work"] == work and r["code"] in codes:
                s.setdefault(r["code"], []).append((int(r["n"]), float(r[column])))
        return s

    spheres = series("hard_spheres", "table_figure", ("kds", "kds_hard_spheres", "baseline"))
    memory = series("hard_spheres", "bytes_per_item", ("kds", "kds_hard_spheres", "baseline"))
    if args.edmd:
        for r in csv.DictReader(open(args.edmd)):
            spheres.setdefault("edmd", []).append((int(r["n"]), float(r["collisions_per_cpu_s"])))
            memory.setdefault("edmd", []).append((int(r["n"]), float(r["peak_rss_bytes_per_sphere"])))
    sorted_list = series("sorted_list", "table_figure", ("kds", "kds_floating", "kds_linear", "baseline"))

    parts = []
    parts += panel(0, "Hard spheres, phi 0.4", "collisions / CPU s", spheres, [(8e5, "goal 8e5")])
    parts += panel(W, "Kinetic sorted list", "events / CPU s", sorted_list, [])
    parts += panel(2 * W, "Memory per hard sphere", "peak RSS bytes / n", memory, [(200, "goal 200 B")])
    codes = [c for c in COLOURS if c in spheres or c in sorted_list or c in memory]
    for i, code in enumerate(codes):
        x, y = 20 + (i % LEGEND_PER_ROW) * 240, H + 12 + (i // LEGEND_PER_ROW) * 16
        parts.append(f'<rect x="{x}" y="{y - 6}" width="14" height="4" fill="{COLOURS[code]}"/>')
        parts.append(f'<text x="{x + 20}" y="{y}">{LABELS[code]}</text>')
    legend_rows = max(1, math.ceil(len(codes) / LEGEND_PER_ROW))
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{3 * W}" height="{H + 8 + 16 * legend_rows}" '
           f'font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n'
           + "\n".join(parts) + "\n</svg>\n")
    open(args.out, "w").write(svg)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
