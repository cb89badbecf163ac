#!/usr/bin/env python3
"""Draws docs/images/box-overlap.svg: three balls, their axis-aligned boxes (radius grown by
the contact tolerance, exaggerated here), the box extremes on the x and y axes as the
sorted lists hold them, and the overlapping pair. Standard library only.

    python3 scripts/draw_box_overlap_figure.py [docs/images/box-overlap.svg]
"""
import sys

BALLS = [  # name, centre x, centre y, radius (pixels), colour
    ("a", 190, 170, 55, "#1f77b4"),
    ("b", 290, 235, 40, "#d62728"),
    ("c", 470, 140, 48, "#2ca02c"),
]
GROW = 6              # the contact tolerance, exaggerated
AXIS_Y = 350          # the x axis (its sorted list below it)
AXIS_X = 60           # the y axis (its sorted list left of it)


def box(b):
    _, x, y, r, _ = b
    h = r + GROW
    return x - h, y - h, x + h, y + h


def overlap(p, q):
    a, b = box(p), box(q)
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "docs/images/box-overlap.svg"
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="640" height="470" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>']
    # overlapping boxes: their intersection shaded
    for i, p in enumerate(BALLS):
        for q in BALLS[i + 1:]:
            if overlap(p, q):
                a, b = box(p), box(q)
                x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
                out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="#f5d76e"/>')
    for name, x, y, r, colour in BALLS:
        x0, y0, x1, y1 = box((name, x, y, r, colour))
        out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="none" stroke="{colour}" '
                   'stroke-dasharray="5,3"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>')
        out.append(f'<text x="{x - 4}" y="{y + 4}">{name}</text>')
        # extremes projected on the axes
        for ex in (x0, x1):
            out.append(f'<line x1="{ex}" y1="{y1}" x2="{ex}" y2="{AXIS_Y}" stroke="{colour}" stroke-opacity="0.35"/>')
            out.append(f'<line x1="{ex}" y1="{AXIS_Y - 6}" x2="{ex}" y2="{AXIS_Y + 6}" stroke="{colour}" stroke-width="2"/>')
        for ey in (y0, y1):
            out.append(f'<line x1="{x0}" y1="{ey}" x2="{AXIS_X}" y2="{ey}" stroke="{colour}" stroke-opacity="0.35"/>')
            out.append(f'<line x1="{AXIS_X - 6}" y1="{ey}" x2="{AXIS_X + 6}" y2="{ey}" stroke="{colour}" stroke-width="2"/>')
    out.append(f'<line x1="{AXIS_X}" y1="{AXIS_Y}" x2="600" y2="{AXIS_Y}" stroke="black"/>')
    out.append(f'<line x1="{AXIS_X}" y1="40" x2="{AXIS_X}" y2="{AXIS_Y}" stroke="black"/>')
    out.append(f'<text x="605" y="{AXIS_Y + 4}">x</text><text x="{AXIS_X - 4}" y="32">y</text>')
    # the sorted lists, in order
    xs = sorted((box(b)[k], b[0] + ("\u207a" if k == 2 else "\u207b")) for b in BALLS for k in (0, 2))
    ys = sorted((box(b)[k], b[0] + ("\u207a" if k == 3 else "\u207b")) for b in BALLS for k in (1, 3))
    out.append(f'<text x="{AXIS_X}" y="{AXIS_Y + 30}">x list: ' + " &lt; ".join(n for _, n in xs) + "</text>")
    out.append(f'<text x="{AXIS_X}" y="{AXIS_Y + 50}">y list: ' + " &lt; ".join(n for _, n in ys) + "</text>")
    pairs = [f"{p[0]}{q[0]}" for i, p in enumerate(BALLS) for q in BALLS[i + 1:] if overlap(p, q)]
    out.append(f'<text x="{AXIS_X}" y="{AXIS_Y + 75}">overlapping boxes (shaded): {", ".join(pairs) or "none"}; '
               'c overlaps a and b on y only</text>')
    out.append(f'<text x="{AXIS_X}" y="{AXIS_Y + 95}">x\u207b, x\u207a: low and high extremes, centre \u2213 '
               '(radius + contact tolerance)</text>')
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
