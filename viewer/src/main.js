// The page: loading a replay file (picker or drag and drop), the controls, the event list,
// the side panel, and window.kdsViewer for tests (docs/viewer.md).
import { eventAt, parseReplay, ReplayError } from './replay.js';
import { frameAt, OTHER_ROLE, ROLES } from './frame.js';
import { View2D } from './view2d.js';
import { View3D } from './view3d.js';

// What each certificate kind means, for the side panel (docs/structures/*.md).
const KINDS = {
  collision: 'Two ballistic spheres touch: their separation certificate (distance of the centres minus the sum of the radii) reached zero. The world applies the collision response and rebuilds their certificates.',
  'bound collision': 'The time-varying bounds of two spheres (at least one with an unknown trajectory) meet: the world probes the real spheres, tests for a contact and resets the bounds.',
  wall: 'A sphere\'s bound reaches a wall of the box: the sphere bounces (or its bound is reset when the trajectory is unknown).',
  resetting: 'An unknown trajectory\'s bound has grown to its cell side (eq. 8): the sphere is probed and its bound shrinks back to the sphere.',
  entering: 'tvb-grid: the bound reaches the next cell face: its region of cells grows and new candidate pairs get certificates.',
  leaving: 'tvb-grid: the bound left a cell face it straddled: its region shrinks and pairs no longer sharing cells lose their certificates.',
  order: 'A kinetic sorted list: two adjacent keys swap. For box overlap, a low and a high box extreme passing each other start or end an overlap; for the rolling tree, a tangency point entering or leaving a threshold box.',
};

const MAX_LIST = 5000; // rows of the event list (longer traces: the first ones, and the slider for the rest)

const $ = (id) => document.getElementById(id);

class Viewer {
  constructor() {
    this.replay = null;
    this.k = -1;
    this.t = 0;
    this.playing = false;
    this.speed = 1;
    this.error = null;
    this.view2d = new View2D($('view2d'));
    this.view3d = new View3D($('view3d'));
    if (this.view3d.error) $('view3d-note').textContent = this.view3d.error;
    this.bind();
    this.legend();
    this.update();
  }

  bind() {
    $('file').addEventListener('change', (e) => e.target.files[0] && this.loadFile(e.target.files[0]));
    const drop = document.body;
    drop.addEventListener('dragover', (e) => {
      e.preventDefault();
      document.body.classList.add('dragging');
    });
    drop.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      document.body.classList.remove('dragging');
      const f = e.dataTransfer && e.dataTransfer.files[0];
      if (f) this.loadFile(f);
    });
    $('play').addEventListener('click', () => (this.playing ? this.pause() : this.play()));
    $('next').addEventListener('click', () => this.step(1));
    $('prev').addEventListener('click', () => this.step(-1));
    $('speed').addEventListener('change', (e) => (this.speed = Number(e.target.value)));
    $('plane').addEventListener('change', (e) => {
      this.view2d.plane = e.target.value;
      this.update();
    });
    $('slider').addEventListener('input', (e) => this.seekTime((Number(e.target.value) / 10000) * this.until()));
    $('events').addEventListener('click', (e) => {
      const row = e.target.closest('[data-event]');
      if (row) this.seekEvent(Number(row.dataset.event));
    });
    document.addEventListener('keydown', (e) => {
      if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
      if (e.key === 'ArrowRight') this.step(1);
      else if (e.key === 'ArrowLeft') this.step(-1);
      else if (e.key === ' ') {
        e.preventDefault();
        this.playing ? this.pause() : this.play();
      }
    });
  }

  legend() {
    const rows = Object.entries(ROLES).map(([role, s]) => `<li><span class="swatch" style="border-color:${s.colour}"></span><b>${role}</b>: ${s.meaning}</li>`);
    rows.push(`<li><span class="swatch" style="border-color:${OTHER_ROLE.colour}"></span>other shapes: ${OTHER_ROLE.meaning}</li>`);
    rows.push('<li><span class="swatch dashed"></span><b>bound</b>: the time-varying bound r + A/2 (t - t0)² of an unknown trajectory</li>');
    rows.push('<li><span class="swatch red"></span><b>red</b>: the bodies of the certificate that failed at the current event</li>');
    $('legend').innerHTML = rows.join('');
  }

  until() {
    return this.replay ? this.replay.until : 1;
  }

  async loadFile(file) {
    let text;
    try {
      text = await file.text();
    } catch (e) {
      return this.fail(`${file.name}: cannot read the file (${e.message})`);
    }
    this.load(text, file.name);
  }

  // Loads a replay from its text; on a bad file, shows the problem and keeps nothing.
  load(text, name = 'replay') {
    this.pause();
    try {
      this.replay = parseReplay(text, name);
    } catch (e) {
      this.replay = null;
      this.fail(e instanceof ReplayError ? e.message : `${name}: ${e.message}`);
      return false;
    }
    this.error = null;
    $('error').hidden = true;
    const h = this.replay.header;
    $('title').textContent = `${name}: ${this.replay.scene.spheres.length} spheres, ${this.replay.events.length} events until t = ${this.until()}, structure ${h.structure}`;
    this.fillEvents();
    this.seekEvent(-1);
    return true;
  }

  fail(message) {
    this.error = message;
    $('error').textContent = message;
    $('error').hidden = false;
    $('title').textContent = 'No replay loaded';
    $('events').innerHTML = '';
    this.update();
  }

  fillEvents() {
    const ev = this.replay.events;
    const rows = ev.slice(0, MAX_LIST).map((e) => `<li data-event="${e.index}"><span class="n">${e.index}</span> <span class="t">${e.time.toPrecision(6)}</span> <span class="kind">${e.kind}</span> <span class="b">${e.bodies.join(' ')}</span></li>`);
    if (ev.length > MAX_LIST) rows.push(`<li class="more">${ev.length - MAX_LIST} more events: use the slider or the step buttons</li>`);
    $('events').innerHTML = rows.join('');
  }

  // Time t, after event k (the last event at or before t, or one of several at t).
  set(k, t) {
    this.k = k;
    this.t = t;
    this.update();
  }

  seekEvent(k) {
    if (!this.replay) return;
    k = Math.max(-1, Math.min(k, this.replay.events.length - 1));
    this.set(k, k >= 0 ? this.replay.events[k].time : 0);
  }

  seekTime(t) {
    if (!this.replay) return;
    t = Math.max(0, Math.min(t, this.until()));
    this.set(eventAt(this.replay.events, t), t);
  }

  step(d) {
    this.pause();
    this.seekEvent(this.k + d);
  }

  play() {
    if (!this.replay || this.playing) return;
    if (this.t >= this.until()) this.seekEvent(-1);
    this.playing = true;
    $('play').textContent = 'Pause';
    let last = performance.now();
    const tick = () => {
      if (!this.playing) return;
      // speed 1: the whole run in 20 seconds. The clock read here, not the frame's
      // timestamp, which may lie before `last`. A frame counts for at most 100 ms, so
      // that a stalled tab (hidden, or a busy machine rendering WebGL in software) goes
      // on where it was instead of jumping ahead, possibly to the end.
      const now = performance.now();
      const dt = Math.min(Math.max(0, now - last), 100);
      const t = this.t + (dt / 1000) * (this.until() / 20) * this.speed;
      last = now;
      if (t >= this.until()) {
        this.seekTime(this.until());
        return this.pause();
      }
      this.seekTime(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    $('play').textContent = 'Play';
  }

  update() {
    const frame = this.replay ? frameAt(this.replay, this.k, this.t) : null;
    this.frame = frame;
    this.view2d.draw(frame);
    this.view3d.draw(frame);
    $('time').textContent = this.replay ? `t = ${this.t.toPrecision(8)}` : '';
    $('slider').value = String(Math.round((this.t / this.until()) * 10000));
    $('cursor').textContent = this.replay ? `event ${this.k} of ${this.replay.events.length}` : '';
    for (const el of document.querySelectorAll('#events .current')) el.classList.remove('current');
    const row = document.querySelector(`#events [data-event="${this.k}"]`);
    if (row) {
      row.classList.add('current');
      if (!this.playing) row.scrollIntoView({ block: 'nearest' });
    }
    this.panel(frame);
  }

  panel(frame) {
    const e = frame && frame.highlighted;
    if (!e) {
      $('certificate').innerHTML = this.replay ? '<p>Before the first event: every certificate holds.</p>' : '<p>Open a replay file (kds run --replay FILE), or drop it here.</p>';
      return;
    }
    const bodies = e.bodies.map((b) => {
      const s = frame.spheres[b];
      return s ? `<li>sphere ${b}: radius ${s.radius}, centre (${s.centre.map((x) => x.toPrecision(5)).join(', ')})</li>` : `<li>body ${b}</li>`;
    });
    $('certificate').innerHTML = `<h3>Event ${e.index}: <span class="kind">${e.kind}</span></h3>
      <p>at t = ${e.time} ${e.exact ? '(decided by the exact path)' : '(decided by the interval filter)'};
      isolating interval [${(e.interval || []).join(', ')}]; ${e.touched} certificates touched by the repair.</p>
      <ul>${bodies.join('')}</ul><p class="explain">${KINDS[e.kind] ?? 'A certificate of the structure failed.'}</p>`;
  }

  // For tests and scripts: what is shown now.
  state() {
    const f = this.frame;
    return {
      loaded: !!this.replay,
      error: this.error,
      file: this.replay ? this.replay.file : null,
      time: this.t,
      eventIndex: this.k,
      events: this.replay ? this.replay.events.length : 0,
      highlighted: f && f.highlighted ? { event: f.highlighted.index, kind: f.highlighted.kind, bodies: [...f.highlighted.bodies] } : null,
      plane: this.view2d.plane,
      drawn2d: { ...this.view2d.drawn },
      drawn3d: this.view3d.error ? null : this.view3d.drawn,
      webgl: !this.view3d.error,
    };
  }
}

const viewer = new Viewer();
window.kdsViewer = {
  state: () => viewer.state(),
  load: (text, name) => viewer.load(text, name),
  next: () => viewer.step(1),
  prev: () => viewer.step(-1),
  seekEvent: (k) => viewer.seekEvent(k),
  seekTime: (t) => viewer.seekTime(t),
  play: () => viewer.play(),
  pause: () => viewer.pause(),
  setPlane: (p) => {
    $('plane').value = p;
    $('plane').dispatchEvent(new Event('change'));
  },
};
