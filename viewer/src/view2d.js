// The 2D view: the scene projected on a coordinate plane (xy, xz or yz) of a canvas.
// Deterministic (no animation state, no randomness): the view the tests read.
import { HIGHLIGHT, roleStyle } from './frame.js';

export const PLANES = { xy: [0, 1], xz: [0, 2], yz: [1, 2] };

export class View2D {
  constructor(canvas) {
    this.canvas = canvas;
    this.plane = 'xy';
    this.drawn = { spheres: 0, bounds: 0, shapes: 0, total: 0 };
  }

  // Scale and offset that fit the box's projection into the canvas, y pointing up.
  transform(box) {
    const [u, v] = PLANES[this.plane];
    const w = this.canvas.width;
    const h = this.canvas.height;
    const margin = 16;
    const su = box.hi[u] - box.lo[u] || 1;
    const sv = box.hi[v] - box.lo[v] || 1;
    const s = Math.min((w - 2 * margin) / su, (h - 2 * margin) / sv);
    const ox = (w - s * su) / 2;
    const oy = (h - s * sv) / 2;
    return {
      s,
      x: (p) => ox + (p[u] - box.lo[u]) * s,
      y: (p) => h - oy - (p[v] - box.lo[v]) * s,
    };
  }

  draw(frame) {
    const ctx = this.canvas.getContext('2d');
    const { width: w, height: h } = this.canvas;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, w, h);
    this.drawn = { spheres: 0, bounds: 0, shapes: 0, total: 0 };
    if (!frame) return;
    const T = this.transform(frame.box);
    const rect = (lo, hi) => {
      const x0 = T.x(lo);
      const x1 = T.x(hi);
      const y0 = T.y(lo);
      const y1 = T.y(hi);
      ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.max(Math.abs(x1 - x0), 1), Math.max(Math.abs(y1 - y0), 1));
    };

    // The box of the world.
    ctx.strokeStyle = '#111827';
    ctx.lineWidth = 2;
    rect(frame.box.lo, frame.box.hi);

    // The structure's shapes, under the spheres.
    ctx.lineWidth = 1;
    for (const s of frame.shapes) {
      const style = roleStyle(s.role);
      const mine = frame.marked.has(s.owner);
      ctx.strokeStyle = mine ? HIGHLIGHT : style.colour;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.globalAlpha = mine ? 0.9 : 0.55;
      if (s.shape === 'box') rect(s.lo, s.hi);
      else if (s.shape === 'sphere') {
        ctx.beginPath();
        ctx.arc(T.x(s.centre), T.y(s.centre), Math.max(s.radius * T.s, 1), 0, 2 * Math.PI);
        ctx.stroke();
      } else if (s.shape === 'segment') {
        ctx.beginPath();
        ctx.moveTo(T.x(s.a), T.y(s.a));
        ctx.lineTo(T.x(s.b), T.y(s.b));
        ctx.stroke();
      } else {
        ctx.font = '11px sans-serif';
        ctx.fillText(s.text ?? '', T.x(s.at), T.y(s.at));
      }
      this.drawn.shapes++;
    }
    ctx.globalAlpha = 1;

    // Time-varying bounds (unknown trajectories): dashed circles around the spheres.
    ctx.setLineDash([4, 3]);
    for (const sp of frame.spheres) {
      if (!sp.unknown) continue;
      ctx.strokeStyle = frame.marked.has(sp.id) ? HIGHLIGHT : '#6b7280';
      ctx.beginPath();
      ctx.arc(T.x(sp.centre), T.y(sp.centre), Math.max(sp.bound * T.s, 1), 0, 2 * Math.PI);
      ctx.stroke();
      this.drawn.bounds++;
    }
    ctx.setLineDash([]);

    // The spheres; the failing certificate's bodies in red, on top.
    const order = [...frame.spheres].sort((a, b) => frame.marked.has(a.id) - frame.marked.has(b.id));
    const labels = frame.spheres.length <= 80;
    for (const sp of order) {
      const on = frame.marked.has(sp.id);
      ctx.beginPath();
      ctx.arc(T.x(sp.centre), T.y(sp.centre), Math.max(sp.radius * T.s, 1.5), 0, 2 * Math.PI);
      ctx.fillStyle = on ? HIGHLIGHT : '#9ca3af';
      ctx.fill();
      ctx.strokeStyle = on ? '#7f1d1d' : '#374151';
      ctx.stroke();
      this.drawn.spheres++;
      if (on) {
        // A ring that stays visible around small spheres.
        ctx.strokeStyle = HIGHLIGHT;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(T.x(sp.centre), T.y(sp.centre), Math.max(sp.radius * T.s + 4, 9), 0, 2 * Math.PI);
        ctx.stroke();
        ctx.lineWidth = 1;
      }
      if (labels && (on || sp.radius * T.s > 6)) {
        ctx.fillStyle = '#111827';
        ctx.font = '10px sans-serif';
        ctx.fillText(String(sp.id), T.x(sp.centre) + 2, T.y(sp.centre) - 2);
      }
    }
    // A pair certificate: the segment between the two centres.
    const pair = frame.highlighted && frame.highlighted.bodies.length === 2 ? frame.highlighted.bodies : null;
    if (pair && frame.marked.size === 2) {
      const a = frame.spheres[pair[0]].centre;
      const b = frame.spheres[pair[1]].centre;
      ctx.strokeStyle = HIGHLIGHT;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(T.x(a), T.y(a));
      ctx.lineTo(T.x(b), T.y(b));
      ctx.stroke();
      ctx.lineWidth = 1;
    }
    this.drawn.total = this.drawn.spheres + this.drawn.bounds + this.drawn.shapes;
  }
}
