// Reads a replay file of `kds run --replay` (docs/viewer.md, "Replay files"): the trace
// header, the scene line, event lines, and motion and draw lines, each holding from the
// event before it. Every problem is a ReplayError naming the line, so that the page can
// say what is wrong with the file instead of drawing nothing.

export const TRACE_VERSION = 1;
export const REPLAY_VERSION = 1;

export class ReplayError extends Error {
  constructor(file, line, message) {
    super(`${file}: line ${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

function isNumber(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

function isPoint(p) {
  return Array.isArray(p) && p.length === 3 && p.every(isNumber);
}

// What a shape needs (kds/report/drawing.hpp); null if it is fine, else the problem.
function shapeProblem(s, spheres) {
  if (typeof s !== 'object' || s === null) return 'a shape is not an object';
  const need = { box: ['lo', 'hi'], sphere: ['centre'], segment: ['a', 'b'], label: ['at'] }[s.shape];
  if (!need) return `unknown shape "${s.shape}"`;
  for (const f of need) if (!isPoint(s[f])) return `shape ${s.shape}: "${f}" is not a point [x, y, z]`;
  if (s.shape === 'sphere' && !isNumber(s.radius)) return 'shape sphere: "radius" is not a number';
  if (s.follow !== undefined && !(Number.isInteger(s.follow) && s.follow >= 0 && s.follow < spheres))
    return `shape ${s.shape}: "follow" names no sphere (${s.follow})`;
  return null;
}

// Parses the whole text. Returns
//   { header, scene, events: [{index,time,kind,bodies,touched,exact,line}],
//     motions: per sphere [{after, t0, c: [[c0..c3] x3], bound: {radius, acceleration, reset}}],
//     draws: per sphere [{after, shapes}] }
// where `after` is the index of the event the line follows (-1: the start).
export function parseReplay(text, file = 'replay') {
  const lines = text.split('\n');
  const truncated = text.length > 0 && !text.endsWith('\n');
  const fail = (n, msg) => {
    throw new ReplayError(file, n, msg);
  };
  const parseLine = (n) => {
    try {
      return JSON.parse(lines[n - 1]);
    } catch (e) {
      if (truncated && n === lines.length)
        fail(n, 'the file ends in the middle of a line: truncated (was the run interrupted?)');
      fail(n, `not JSON (${e.message})`);
    }
  };
  if (text.trim() === '') fail(1, 'empty file: not a kds replay');

  const header = parseLine(1);
  if (typeof header !== 'object' || header === null || !('kds_trace' in header))
    fail(1, 'not a kds trace: the first line has no "kds_trace" field (write one with kds run --replay FILE)');
  if (header.kds_trace !== TRACE_VERSION)
    fail(1, `a trace of another version (${header.kds_trace}, written by kds ${header.kds ?? '?'}); this viewer reads version ${TRACE_VERSION}`);

  if (lines.length < 2 || lines[1].trim() === '')
    fail(2, 'no scene line: this is a plain trace (kds run --trace); the viewer needs kds run --replay FILE');
  const scene = parseLine(2);
  if (typeof scene !== 'object' || scene === null || !('kds_replay' in scene))
    fail(2, 'no scene line: this is a plain trace (kds run --trace); the viewer needs kds run --replay FILE');
  if (scene.kds_replay !== REPLAY_VERSION)
    fail(2, `replay lines of another version (${scene.kds_replay}); this viewer reads version ${REPLAY_VERSION}`);
  if (!scene.box || !isPoint(scene.box.lo) || !isPoint(scene.box.hi)) fail(2, 'scene: "box" needs "lo" and "hi" points');
  if (!Array.isArray(scene.spheres)) fail(2, 'scene: "spheres" is not a list');
  scene.spheres.forEach((s, i) => {
    if (!s || !isNumber(s.radius) || s.radius <= 0) fail(2, `scene: spheres[${i}].radius is not a positive number`);
  });
  const n = scene.spheres.length;

  const events = [];
  const motions = Array.from({ length: n }, () => []);
  const draws = Array.from({ length: n }, () => []);
  const sphereIndex = (n1, v, what) => {
    if (!Number.isInteger(v) || v < 0 || v >= n) fail(n1, `${what}: no sphere ${JSON.stringify(v)} (the scene has ${n})`);
    return v;
  };
  for (let k = 3; k <= lines.length; ++k) {
    if (lines[k - 1].trim() === '') continue;
    const o = parseLine(k);
    if (typeof o !== 'object' || o === null) fail(k, 'not a JSON object');
    const after = events.length - 1;
    if ('event' in o) {
      if (o.event !== events.length) fail(k, `event ${o.event} where event ${events.length} was expected`);
      if (!isNumber(o.time)) fail(k, 'event: "time" is not a number');
      if (events.length && o.time < events[events.length - 1].time)
        fail(k, `event ${o.event}: time ${o.time} before the previous event's ${events[events.length - 1].time}`);
      if (typeof o.kind !== 'string') fail(k, 'event: "kind" is not a string');
      if (!Array.isArray(o.bodies)) fail(k, 'event: "bodies" is not a list');
      events.push({ index: o.event, time: o.time, kind: o.kind, bodies: o.bodies, touched: o.touched, exact: !!o.exact,
                    interval: o.interval, line: k });
    } else if ('motion' in o) {
      const i = sphereIndex(k, o.motion, 'motion');
      const c = o.coefficients;
      if (!Array.isArray(c) || c.length !== 3 || !c.every((a) => Array.isArray(a) && a.length === 4 && a.every(isNumber)))
        fail(k, 'motion: "coefficients" must be 3 lists of 4 numbers');
      if (!isNumber(o.t0)) fail(k, 'motion: "t0" is not a number');
      const b = o.bound;
      if (!b || !isNumber(b.radius) || !isNumber(b.acceleration) || !isNumber(b.reset))
        fail(k, 'motion: "bound" needs "radius", "acceleration" and "reset"');
      motions[i].push({ after, t0: o.t0, c, bound: b });
    } else if ('draw' in o) {
      const i = sphereIndex(k, o.draw, 'draw');
      if (!Array.isArray(o.shapes)) fail(k, 'draw: "shapes" is not a list');
      for (const s of o.shapes) {
        const p = shapeProblem(s, n);
        if (p) fail(k, `draw: ${p}`);
      }
      draws[i].push({ after, shapes: o.shapes });
    } else {
      fail(k, 'neither an event, a motion nor a draw line');
    }
  }
  for (let i = 0; i < n; ++i) if (!motions[i].length || motions[i][0].after !== -1) fail(3, `no motion of sphere ${i} at the start`);
  const until = isNumber(header.until) ? header.until : events.length ? events[events.length - 1].time : 1;
  return { file, header, scene, events, motions, draws, until };
}

// The last entry of a timeline holding after event `k` (entries sorted by `after`).
export function latest(timeline, k) {
  let lo = 0;
  let hi = timeline.length; // first entry with after > k
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (timeline[mid].after <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo ? timeline[lo - 1] : null;
}

// Position of a motion at time t: sum c[axis][p] (t - t0)^p.
export function position(m, t) {
  const d = t - m.t0;
  return m.c.map((c) => ((c[3] * d + c[2]) * d + c[1]) * d + c[0]);
}

// Radius of the time-varying bound at t: r + A/2 (t - reset)^2 (Kim, Guibas, Shin).
export function boundRadius(b, t) {
  const d = t - b.reset;
  return b.radius + 0.5 * b.acceleration * d * d;
}

// The index of the last event at or before t (-1 if none).
export function eventAt(events, t) {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].time <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
