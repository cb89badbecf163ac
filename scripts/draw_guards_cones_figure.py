#!/usr/bin/env python3
"""Draws docs/images/guards-cones.svg, a two-dimensional picture of guards and cones
(structures/guards_cones): left, a ball K with its guards (Lemma 7: the grid of a square
of side 2 (rho + 1) r, cells of side at most 2 r / (sqrt(3) (rho + 1)); the guards kept
are those between r and (rho + 1) r from the centre) and a larger ball K' touching it,
which holds a guard. Right, one guard g with its cones (Lemma 8: the boundary of a square
around g cut into cells, each giving a cone with apex g), two balls whose boxes contain g,
and the closest one of the cone holding their centres. Standard library only.

    python3 scripts/draw_guards_cones_figure.py [docs/images/guards-cones.svg]
"""
import math
import sys

S = 60.0            # pixels per unit
OX, OY = 230, 250   # centre of K, in pixels
R_IN = 1.0          # inner radius of K (a ball: rho = 1)
RHO = 1.0


def px(x, y, ox=OX, oy=OY):
    return ox + S * x, oy - S * y


def left(out):
    cells = math.ceil(math.sqrt(3) * (RHO + 1) ** 2)
    half = (RHO + 1) * R_IN
    x0, y0 = px(-half, half)
    out.append(f'<rect x="{x0}" y="{y0}" width="{2 * half * S}" height="{2 * half * S}" fill="none" stroke="#999" stroke-dasharray="4,3"/>')
    for i in range(cells + 1):
        t = -half + 2 * half * i / cells
        a, b = px(t, -half), px(t, half)
        out.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="#eee"/>')
        a, b = px(-half, t), px(half, t)
        out.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="#eee"/>')
    # K' touching K from the upper right, radius 1.8.
    big, d = 1.8, (math.cos(0.6), math.sin(0.6))
    cx, cy = d[0] * (R_IN + big), d[1] * (R_IN + big)
    c = px(cx, cy)
    out.append(f'<circle cx="{c[0]}" cy="{c[1]}" r="{big * S}" fill="#d6272822" stroke="#d62728" stroke-width="2"/>')
    out.append(f'<text x="{c[0] + 30}" y="{c[1] - 40}" fill="#d62728">K\' (larger)</text>')
    k = px(0, 0)
    out.append(f'<circle cx="{k[0]}" cy="{k[1]}" r="{R_IN * S}" fill="#1f77b433" stroke="#1f77b4" stroke-width="2"/>')
    out.append(f'<text x="{k[0] - 6}" y="{k[1] + 5}" fill="#1f77b4">K</text>')
    for i in range(cells + 1):
        for j in range(cells + 1):
            x, y = -half + 2 * half * i / cells, -half + 2 * half * j / cells
            dist = math.hypot(x, y)
            kept = R_IN * (1 - 1e-9) <= dist <= half * (1 + 1e-9)
            inside = math.hypot(x - cx, y - cy) <= big
            p = px(x, y)
            colour = "#d62728" if kept and inside else ("black" if kept else "#bbb")
            out.append(f'<circle cx="{p[0]:.1f}" cy="{p[1]:.1f}" r="{3.5 if kept else 2}" fill="{colour}"/>')
    out.append(f'<text x="{OX - 150}" y="{OY + 165}">guards of K: grid points between r and (rho + 1) r</text>')
    out.append(f'<text x="{OX - 150}" y="{OY + 182}">from its centre; red: those inside K\'</text>')


def right(out):
    gx, gy = 640, 250
    m = 4  # cells per side of the square around g (the library uses 10 per face in 3D)
    half = 1.6
    corners = []
    for side in range(4):
        for i in range(m):
            t = -half + 2 * half * i / m
            corners.append([(t, -half), (half, t), (-t, half), (-half, -t)][side])
    n = len(corners)
    for i, (x, y) in enumerate(corners):
        a = px(x, y, gx, gy)
        out.append(f'<line x1="{gx}" y1="{gy}" x2="{a[0]:.1f}" y2="{a[1]:.1f}" stroke="#999"/>')
    # The cone between corners 5 and 6 (pointing up-right) is shaded.
    a, b = corners[5], corners[6]
    pa, pb = px(a[0] * 3, a[1] * 3, gx, gy), px(b[0] * 3, b[1] * 3, gx, gy)
    out.append(f'<polygon points="{gx},{gy} {pa[0]:.1f},{pa[1]:.1f} {pb[0]:.1f},{pb[1]:.1f}" fill="#2ca02c33"/>')
    out.append(f'<circle cx="{gx}" cy="{gy}" r="4" fill="black"/><text x="{gx - 18}" y="{gy + 18}">g</text>')
    # Two balls with centres in that cone, both boxes containing g: the nearer is K*.
    ang_a = math.atan2(a[1], a[0]); ang_b = math.atan2(b[1], b[0])
    mid = (ang_a + ang_b) / 2
    for dist, r, colour, label in ((1.6, 1.25, "#2ca02c", "K* (closest)"), (3.3, 2.6, "#ff7f0e", "farther")):
        cx, cy = dist * math.cos(mid), dist * math.sin(mid)
        c = px(cx, cy, gx, gy)
        bx, by = px(cx - r, cy + r, gx, gy)
        out.append(f'<rect x="{bx:.1f}" y="{by:.1f}" width="{2 * r * S}" height="{2 * r * S}" fill="none" stroke="{colour}" stroke-dasharray="5,3"/>')
        out.append(f'<circle cx="{c[0]:.1f}" cy="{c[1]:.1f}" r="{r * S}" fill="{colour}22" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{c[0]:.1f}" cy="{c[1]:.1f}" r="3" fill="{colour}"/>')
        out.append(f'<text x="{c[0] + 8:.1f}" y="{c[1] - 6:.1f}" fill="{colour}">{label}</text>')
    out.append(f'<text x="{gx - 170}" y="{gy + 165}">cones of g; the closest centre in a cone whose box</text>')
    out.append(f'<text x="{gx - 170}" y="{gy + 182}">contains g is the candidate (Lemma 9)</text>')


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "docs/images/guards-cones.svg"
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="900" height="460" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>']
    left(out)
    right(out)
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
