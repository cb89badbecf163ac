"""Log-log line charts written by hand as SVG (standard library only), shared by
scripts/plot_box_overlap.py and scripts/plot_guards_cones.py: panels side by side, one
polyline per series, decades on both axes, a legend line under them.

    out = svg_plot.start(panels=2)
    svg_plot.panel(out, 0, {"box-overlap": [(50, 12.0), (100, 12.1)]}, "title", svg_plot.colour_of(COLOURS))
    svg_plot.legend(out, COLOURS, present, "note")
    svg_plot.finish(out, "docs/images/x.svg")
"""
import math

W, H, PAD = 420, 300, 55  # one panel, and the margin around its plot area


def start(panels):
    """The SVG's opening elements for `panels` panels side by side, with room for a legend line."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{panels * W}" height="{H + 40}" font-family="sans-serif" '
            'font-size="12">', '<rect width="100%" height="100%" fill="white"/>']


def colour_of(colours, dashed=lambda key: False):
    """A style function for panel(): the colour of a series' key (its first element when the
    key is a tuple) from `colours` (black if absent), dashed where dashed(key) says so."""
    def style(key):
        name = key[0] if isinstance(key, tuple) else key
        return colours.get(name, "black"), ' stroke-dasharray="6,3"' if dashed(key) else ""
    return style


def panel(out, x0, series, title, style, guides=(), x_ticks=None):
    """One log-log panel at horizontal offset x0. series: {key: [(x, y)]}, drawn in sorted
    key order, points with y <= 0 left out; style(key) -> (colour, extra polyline
    attributes). guides: (exponent, label) pairs, grey dotted lines y ~ x^exponent through
    the lowest point of the panel, for reading slopes. The x axis spans whole decades,
    labelled 1eK, unless x_ticks lists the values to label (for data within a decade or
    two: the axis then spans them with a margin)."""
    xs = [x for s in series.values() for x, _ in s]
    ys = [y for s in series.values() for _, y in s if y > 0]
    if x_ticks:
        lx0, lx1 = math.log10(min(x_ticks)) - 0.1, math.log10(max(x_ticks)) + 0.1
    else:
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
    if x_ticks:
        for t in x_ticks:
            out.append(f'<text x="{px(t) - 8:.1f}" y="{H - PAD + 18}">{t:g}</text>')
    else:
        for e in range(lx0, lx1 + 1):
            out.append(f'<text x="{px(10 ** e) - 12}" y="{H - PAD + 18}">1e{e}</text>')
    for e in range(ly0, ly1 + 1):
        out.append(f'<text x="{x0 + 8}" y="{py(10 ** e) + 4}">1e{e}</text>')
        out.append(f'<line x1="{x0 + PAD}" y1="{py(10 ** e)}" x2="{x0 + W - PAD}" y2="{py(10 ** e)}" stroke="#ddd"/>')
    out.append(f'<text x="{x0 + W / 2 - 5}" y="{H - 12}">n</text>')
    for exponent, label in guides:
        # From the lowest point, until the line leaves the panel at the right or the top.
        xa, ya = min(xs), min(ys)
        xb = min(max(xs), xa * (10 ** ly1 / ya) ** (1 / exponent))
        yb = ya * (xb / xa) ** exponent
        out.append(f'<line x1="{px(xa):.1f}" y1="{py(ya):.1f}" x2="{px(xb):.1f}" y2="{py(yb):.1f}" stroke="#999" '
                   'stroke-dasharray="2,3"/>')
        out.append(f'<text x="{px(xb) - 4:.1f}" y="{py(yb) + 14:.1f}" text-anchor="end" fill="#777">{label}</text>')
    for key, pts in sorted(series.items()):
        pts = sorted(p for p in pts if p[1] > 0)
        if not pts:
            continue
        colour, extra = style(key)
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{extra}/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')


def legend(out, colours, present, note):
    """Under the panels: a coloured line and name for each entry of `colours` in `present`,
    then `note`."""
    y = H + 15
    x = PAD
    for name, colour in colours.items():
        if name in present:
            out.append(f'<line x1="{x}" y1="{y}" x2="{x + 25}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
            out.append(f'<text x="{x + 30}" y="{y + 4}">{name}</text>')
            x += 130
    out.append(f'<text x="{x}" y="{y + 4}">{note}</text>')


def finish(out, target):
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
