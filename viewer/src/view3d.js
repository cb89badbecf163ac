// The 3D view (three.js, WebGL): spheres, bounds and the structure's boxes in the world's
// box, turned by dragging, zoomed with the wheel. Rendered on demand, not every frame.
import * as THREE from 'three';
import { HIGHLIGHT, roleStyle } from './frame.js';

export class View3D {
  constructor(canvas) {
    this.canvas = canvas;
    this.error = null;
    try {
      // preserveDrawingBuffer: screenshots read what was drawn last.
      this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    } catch (e) {
      this.error = `no WebGL: ${e.message}`;
      return;
    }
    this.renderer.setClearColor(0xf8fafc);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, canvas.width / canvas.height, 0.01, 1e7);
    this.scene.add(new THREE.AmbientLight(0xffffff, 0.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.2);
    sun.position.set(1, 2, 3);
    this.scene.add(sun);
    this.content = new THREE.Group();
    this.scene.add(this.content);
    this.yaw = 0.7;
    this.pitch = 0.5;
    this.zoom = 1;
    this.sphereGeometry = new THREE.SphereGeometry(1, 24, 16);
    this.drawn = 0;
    this.listen();
  }

  listen() {
    let last = null;
    this.canvas.addEventListener('pointerdown', (e) => {
      last = [e.clientX, e.clientY];
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointerup', () => (last = null));
    this.canvas.addEventListener('pointermove', (e) => {
      if (!last) return;
      this.yaw -= (e.clientX - last[0]) * 0.01;
      this.pitch = Math.max(-1.5, Math.min(1.5, this.pitch + (e.clientY - last[1]) * 0.01));
      last = [e.clientX, e.clientY];
      this.render();
    });
    this.canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoom = Math.max(0.2, Math.min(5, this.zoom * (e.deltaY > 0 ? 1.1 : 1 / 1.1)));
      this.render();
    });
  }

  clear() {
    for (const o of [...this.content.children]) {
      this.content.remove(o);
      if (o.geometry && o.geometry !== this.sphereGeometry) o.geometry.dispose();
      if (o.material) o.material.dispose();
    }
  }

  boxLines(lo, hi, colour, opacity) {
    const size = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]].map((d) => Math.max(d, 1e-9));
    const g = new THREE.EdgesGeometry(new THREE.BoxGeometry(...size));
    const m = new THREE.LineBasicMaterial({ color: colour, transparent: opacity < 1, opacity });
    const l = new THREE.LineSegments(g, m);
    l.position.set((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    return l;
  }

  draw(frame) {
    if (this.error) return;
    this.clear();
    this.frame = frame;
    this.drawn = 0;
    if (!frame) return this.render();
    this.content.add(this.boxLines(frame.box.lo, frame.box.hi, 0x111827, 1));
    for (const s of frame.shapes) {
      const colour = frame.marked.has(s.owner) ? HIGHLIGHT : roleStyle(s.role).colour;
      if (s.shape === 'box') this.content.add(this.boxLines(s.lo, s.hi, colour, 0.6));
      else if (s.shape === 'sphere') {
        const m = new THREE.Mesh(this.sphereGeometry, new THREE.MeshBasicMaterial({ color: colour, wireframe: true }));
        m.position.set(...s.centre);
        m.scale.setScalar(s.radius);
        this.content.add(m);
      } else if (s.shape === 'segment') {
        const g = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(...s.a), new THREE.Vector3(...s.b)]);
        this.content.add(new THREE.Line(g, new THREE.LineBasicMaterial({ color: colour })));
      } else continue; // labels: the 2D view and the side panel show them
      this.drawn++;
    }
    for (const sp of frame.spheres) {
      const on = frame.marked.has(sp.id);
      const m = new THREE.Mesh(this.sphereGeometry, new THREE.MeshLambertMaterial({ color: on ? HIGHLIGHT : 0x9ca3af }));
      m.position.set(...sp.centre);
      m.scale.setScalar(sp.radius);
      this.content.add(m);
      this.drawn++;
      const size = Math.max(...frame.box.lo.map((lo, k) => frame.box.hi[k] - lo));
      if (on && sp.radius < size / 80) {
        // A red shell that keeps small spheres visible (not counted: a marker).
        const shell = new THREE.Mesh(this.sphereGeometry, new THREE.MeshBasicMaterial({ color: HIGHLIGHT, wireframe: true }));
        shell.position.set(...sp.centre);
        shell.scale.setScalar(size / 50);
        this.content.add(shell);
      }
      if (sp.unknown) {
        const b = new THREE.Mesh(this.sphereGeometry, new THREE.MeshBasicMaterial({
          color: on ? HIGHLIGHT : 0x6b7280, transparent: true, opacity: 0.15, depthWrite: false }));
        b.position.set(...sp.centre);
        b.scale.setScalar(sp.bound);
        this.content.add(b);
        this.drawn++;
      }
    }
    this.render();
  }

  render() {
    if (this.error) return;
    const box = this.frame ? this.frame.box : { lo: [0, 0, 0], hi: [1, 1, 1] };
    const c = box.lo.map((lo, k) => (lo + box.hi[k]) / 2);
    const size = Math.max(...box.lo.map((lo, k) => box.hi[k] - lo), 1e-9);
    const d = 2.8 * size * this.zoom;
    // z up: the rolling balls' floor lies flat.
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(c[0] + d * Math.cos(this.pitch) * Math.cos(this.yaw),
                             c[1] + d * Math.cos(this.pitch) * Math.sin(this.yaw), c[2] + d * Math.sin(this.pitch));
    this.camera.lookAt(c[0], c[1], c[2]);
    this.camera.near = d / 1000;
    this.camera.far = d * 10;
    this.camera.aspect = this.canvas.width / this.canvas.height;
    this.camera.updateProjectionMatrix();
    this.renderer.setSize(this.canvas.width, this.canvas.height, false);
    this.renderer.render(this.scene, this.camera);
  }
}
