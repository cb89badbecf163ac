#!/usr/bin/env python3
"""Draws docs/images/rolling-threshold-boxes.svg: one node of the rolling-ball collision
tree seen from above (Abam, de Berg, Poon, Speckmann, Figs. 2-4). The large balls (B_L,
dark) carry threshold disks of radius 2 sqrt(r_i r_min) (dashed) and their bounding
threshold boxes; the small balls (B_S, light) are tested by their tangency points (dots).
A point inside a box makes a candidate pair (a line to the box's ball). A side view shows
why: two balls tangent to the plane touch when their tangency points are 2 sqrt(r_i r_j)
apart. Standard library only."""
import math
import pathlib

SCALE = 9.0           # pixels per unit
W, H = 1000, 560

LARGE = [(22, 20, 4.0), (52, 30, 6.0), (30, 44, 4.5), (62, 10, 4.0)]   # x, y, r of B_L
SMALL = [(14, 14, 1.2), (27, 26, 2.0), (44, 23, 1.5), (60, 42, 3.0), (38, 50, 1.0),
         (9, 44, 2.5), (68, 22, 1.8), (47, 8, 3.5), (19, 33, 1.0)]      # x, y, r of B_S


def px(x, y):
    return 20 + SCALE * x, 20 + SCALE * y


def top_view():
    r_min = min(r for _, _, r in LARGE)
    out = []
    boxes = []
    for k, (x, y, r) in enumerate(LARGE):
        h = 2 * math.sqrt(r * r_min)
        boxes.append((x - h, y - h, x + h, y + h, k))
        cx, cy = px(x, y)
        out.append(f'<rect x="{px(x - h, 0)[0]:.1f}" y="{px(0, y - h)[1]:.1f}" width="{2 * h * SCALE:.1f}" '
                   f'height="{2 * h * SCALE:.1f}" fill="#cfe0f5" fill-opacity="0.35" stroke="#2b5d9b"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{h * SCALE:.1f}" fill="none" stroke="#2b5d9b" '
                   f'stroke-dasharray="5,4"/>')
    for x, y, r in LARGE:
        cx, cy = px(x, y)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * SCALE:.1f}" fill="#555" fill-opacity="0.85"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.5" fill="white"/>')
    for x, y, r in SMALL:
        cx, cy = px(x, y)
        for x0, y0, x1, y1, k in boxes:
            if x0 < x < x1 and y0 < y < y1:
                lx, ly = px(LARGE[k][0], LARGE[k][1])
                out.append(f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{lx:.1f}" y2="{ly:.1f}" stroke="#c0392b" '
                           f'stroke-width="1.5"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * SCALE:.1f}" fill="#bbb" fill-opacity="0.8" '
                   f'stroke="#777"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="2.5" fill="#c0392b"/>')
    return out


def side_view(x0, y0):
    """Two balls tangent to the plane, touching: tangency points 2 sqrt(r1 r2) apart."""
    s = 14.0
    r1, r2 = 3.0, 1.2
    d = 2 * math.sqrt(r1 * r2)
    out = [f'<line x1="{x0 - 20}" y1="{y0}" x2="{x0 + 200}" y2="{y0}" stroke="#333" stroke-width="2"/>']
    a, b = x0 + 40, x0 + 40 + d * s
    out.append(f'<circle cx="{a}" cy="{y0 - r1 * s}" r="{r1 * s}" fill="#555" fill-opacity="0.85"/>')
    out.append(f'<circle cx="{b:.1f}" cy="{y0 - r2 * s}" r="{r2 * s}" fill="#bbb" stroke="#777"/>')
    out.append(f'<line x1="{a}" y1="{y0 + 14}" x2="{b:.1f}" y2="{y0 + 14}" stroke="#c0392b" '
               f'marker-start="url(#tick)" marker-end="url(#tick)"/>')
    out.append(f'<text x="{(a + b) / 2:.1f}" y="{y0 + 32}" text-anchor="middle" font-size="13">2 sqrt(r1 r2)</text>')
    out.append(f'<text x="{x0 - 20}" y="{y0 - 100}" font-size="13">side view: touching balls</text>')
    return out


def main():
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif">',
             '<defs><marker id="tick" markerWidth="2" markerHeight="10" refX="1" refY="5" orient="auto">'
             '<rect width="2" height="10" fill="#c0392b"/></marker></defs>',
             f'<rect width="{W}" height="{H}" fill="white"/>']
    parts += top_view()
    parts += side_view(780, 300)
    legend = ["dark: B_L (larger half), light: B_S (smaller half), dots: tangency points",
              "dashed: threshold disks, radius 2 sqrt(r_i r_min); squares: threshold boxes",
              "red lines: points inside a box = candidate pairs (one certificate each)"]
    for k, text in enumerate(legend):
        parts.append(f'<text x="20" y="{H - 44 + 16 * k}" font-size="13">{text}</text>')
    parts.append("</svg>")
    target = pathlib.Path(__file__).resolve().parent.parent / "docs" / "images" / "rolling-threshold-boxes.svg"
    target.write_text("\n".join(parts) + "\n")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
