#!/usr/bin/env python3
"""Draws docs/images/tvb-bound.svg: a sphere, its time-varying bound at three times, and
the grid cells the bound meets (Kim, Guibas, Shin, Figs. 1-3). Standard library only."""
import math
import pathlib

CELL = 120          # cell side in pixels
ORIGIN = (40, 40)   # top-left of the grid
R = 14              # sphere radius
A = 36.0            # acceleration bound (pixels / s^2)
X0, V0 = (95.0, 250.0), (70.0, -35.0)  # position and velocity at the last probe


def bound(t):
    """Centre and radius of the bound t seconds after the probe (eqs. 5 and 6)."""
    cx, cy = X0[0] + V0[0] * t, X0[1] + V0[1] * t
    return cx, cy, R + 0.5 * A * t * t


def main():
    reset = (CELL - 2 * R) / A  # eq. (8): the diameter reaches the cell side
    times = [0.0, 0.6 * reset, reset]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="900" height="440" font-family="sans-serif" font-size="13">',
           '<rect width="100%" height="100%" fill="white"/>']
    for i in range(4):
        for j in range(3):
            x, y = ORIGIN[0] + i * CELL, ORIGIN[1] + j * CELL
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#bbb"/>')
    # the predicted path of the centre
    cx1, cy1, _ = bound(reset)
    out.append(f'<line x1="{X0[0]}" y1="{X0[1]}" x2="{cx1:.1f}" y2="{cy1:.1f}" stroke="#888" stroke-dasharray="4 3"/>')
    colours = ["#1f77b4", "#ff7f0e", "#d62728"]
    labels = ["t0: bound = sphere", "later: the bound grows as A/2 (t - t0)^2", "reset: diameter = cell side (eq. 8)"]
    for t, colour, label, k in zip(times, colours, labels, range(3)):
        cx, cy, r = bound(t)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{colour}" fill-opacity="0.12" stroke="{colour}"/>')
        out.append(f'<text x="{ORIGIN[0] + 4 * CELL + 10}" y="{70 + 22 * k}" fill="{colour}">{label}</text>')
    out.append(f'<circle cx="{X0[0]}" cy="{X0[1]}" r="{R}" fill="#1f77b4"/>')
    out.append(f'<text x="{ORIGIN[0]}" y="{ORIGIN[1] + 3 * CELL + 25}">Grid cells of the sphere\'s level (side L >= 2 diameters); '
               'the bound meets at most 2 cells per axis.</text>')
    out.append(f'<text x="{ORIGIN[0]}" y="{ORIGIN[1] + 3 * CELL + 45}">Entering/leaving events when the bound crosses a cell face '
               '(eq. 7); dashed: predicted path x(t0) + v(t0)(t - t0).</text>')
    out.append('</svg>')
    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / "images" / "tvb-bound.svg"
    path.write_text("\n".join(out) + "\n")
    print(path)


if __name__ == "__main__":
    main()
