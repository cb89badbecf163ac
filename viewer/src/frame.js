// What to draw at one instant: the state after event k at time t, in world coordinates,
// the same for the 2D and the 3D view.
import { boundRadius, latest, position } from './replay.js';

// Colours and legend of the shape roles that structures draw (BroadPhase::draw).
export const ROLES = {
  cell: { colour: '#3b82f6', meaning: 'grid cells the sphere\'s bound meets (tvb-grid)' },
  'threshold box': { colour: '#f59e0b', meaning: 'threshold box around a large ball\'s tangency point (rolling-tree)' },
  box: { colour: '#10b981', meaning: 'axis-aligned box of the sphere (box-overlap)' },
  guard: { colour: '#db2777', meaning: 'guards of the object: a larger object touching it contains one (guards-cones)' },
};
export const OTHER_ROLE = { colour: '#8b5cf6', meaning: 'drawn by the structure' };
export const HIGHLIGHT = '#dc2626';

export function frameAt(replay, k, t) {
  const n = replay.scene.spheres.length;
  const spheres = [];
  for (let i = 0; i < n; ++i) {
    const m = latest(replay.motions[i], k);
    spheres.push({ id: i, centre: position(m, t), radius: replay.scene.spheres[i].radius, bound: boundRadius(m.bound, t),
                   unknown: m.bound.acceleration > 0 });
  }
  const shapes = [];
  for (let i = 0; i < n; ++i) {
    const d = latest(replay.draws[i], k);
    if (!d) continue;
    for (const s of d.shapes) {
      const base = s.follow === undefined ? [0, 0, 0] : spheres[s.follow].centre;
      const at = (p) => [p[0] + base[0], p[1] + base[1], p[2] + base[2]];
      const r = { owner: i, shape: s.shape, role: s.role, text: s.text, radius: s.radius };
      if (s.shape === 'box') Object.assign(r, { lo: at(s.lo), hi: at(s.hi) });
      else if (s.shape === 'sphere') r.centre = at(s.centre);
      else if (s.shape === 'segment') Object.assign(r, { a: at(s.a), b: at(s.b) });
      else r.at = at(s.at);
      shapes.push(r);
    }
  }
  const event = k >= 0 ? replay.events[k] : null;
  // The certificate that failed at the last event (at or before t) stays highlighted
  // until the next event, so that it can be seen while playing.
  const highlighted = event;
  const marked = new Set(highlighted ? highlighted.bodies.filter((b) => b >= 0 && b < n) : []);
  return { t, k, spheres, shapes, event, highlighted, marked, box: replay.scene.box };
}

export function roleStyle(role) {
  return ROLES[role] ?? OTHER_ROLE;
}
