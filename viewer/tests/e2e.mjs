// End-to-end test of the replay viewer (CTest: viewer_e2e). Generates a small scenario
// with the kds program, runs it with --replay, opens the built page over file:// in
// headless Chromium (Debian's, driven by playwright-core), loads the replay through the
// file picker and by drag and drop, steps through events, and checks the viewer's state
// (time, highlighted certificate, objects drawn) against the replay file, read here on
// its own. Screenshots of the 2D and 3D views must not be blank; bad files must give a
// message naming the line and the problem.
//
// Usage: node e2e.mjs --kds KDS --page kds-viewer.html --work DIR [--screenshot PNG]
//   --screenshot: also save a screenshot of the whole page (docs/images/viewer.png).
// The browser: $KDS_CHROMIUM, else /usr/bin/chromium. KDS_E2E_TIMES=1 prints the time
// each part took.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pixelStats, readPng } from './png.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const need of ['kds', 'page', 'work'])
  if (!args[need]) {
    console.error(`e2e: --${need} is required`);
    process.exit(2);
  }
const work = resolve(args.work);
mkdirSync(work, { recursive: true });
const browserPath = process.env.KDS_CHROMIUM || '/usr/bin/chromium';
if (!existsSync(browserPath)) {
  console.error(`e2e: no browser at ${browserPath} (Debian: apt-get install chromium; scripts/install-deps.sh does it)`);
  process.exit(1);
}
// playwright-core from the build's node_modules (the current directory), else next to the viewer.
const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require(require.resolve('playwright-core', {
  paths: [join(process.cwd(), 'node_modules'), new URL('../node_modules', import.meta.url).pathname] }));

let failures = 0;
const started = Date.now();
const lap = (what) => process.env.KDS_E2E_TIMES && console.log(`${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
function check(ok, what) {
  if (!ok) {
    failures++;
    console.error(`FAIL: ${what}`);
  }
}
function equal(a, b, what) {
  const ok = JSON.stringify(a) === JSON.stringify(b);
  check(ok, `${what}: got ${JSON.stringify(a)}, expected ${JSON.stringify(b)}`);
}

// 1. A small scene: spheres under random forces (bounds and grid cells), tvb-grid.
const kds = resolve(args.kds);
const scenario = join(work, 'scene.json');
const replayPath = join(work, 'scene.replay.jsonl');
execFileSync(kds, ['generate', 'paper-box', '--n', '24', '--seed', '3', '-o', scenario]);
execFileSync(kds, ['run', scenario, '--until', '0.4', '--structure', 'tvb-grid', '--replay', replayPath, '--no-progress']);
// A replay file is a trace: kds replay --check reads it.
execFileSync(kds, ['replay', '--check', replayPath]);

// 2. The file read independently of the viewer.
const text = readFileSync(replayPath, 'utf8');
const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l));
const scene = lines[1];
const n = scene.spheres.length;
const events = lines.filter((o) => 'event' in o);
check(events.length >= 10, `the scene has at least 10 events (it has ${events.length})`);
// Shapes and bounds shown after event k: for each sphere, its last draw and motion line before the event's successor.
function expectedAfter(k) {
  const shapes = new Array(n).fill(0);
  const unknown = new Array(n).fill(false);
  let seen = -1;
  for (const o of lines.slice(2)) {
    if ('event' in o) {
      if (o.event > k) break;
      seen = o.event;
    } else if ('draw' in o) shapes[o.draw] = o.shapes.length;
    else if ('motion' in o) unknown[o.motion] = o.bound.acceleration > 0;
  }
  return { shapes: shapes.reduce((a, b) => a + b, 0), bounds: unknown.filter(Boolean).length, seen };
}

lap('const browser = awai');
const browser = await chromium.launch({
  executablePath: browserPath,
  args: ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--no-sandbox', '--allow-file-access-from-files'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1640, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pathToFileURL(resolve(args.page)).href);
  const state = () => page.evaluate(() => window.kdsViewer.state());
  // Waits for a condition on the page, polled every 100 ms rather than on animation frames
  // (a loaded machine's software WebGL can hold frames back). On a timeout, says what it
  // waited for and what the page showed, then throws.
  const waitFor = async (condition, arg, what, timeout = 30000) => {
    try {
      await page.waitForFunction(condition, arg, { polling: 100, timeout });
      return true;
    } catch (e) {
      if (e.name !== 'TimeoutError') throw e;
      const shown = await state().catch((err) => `no state (${err.message})`);
      console.error(`e2e: waited ${timeout / 1000} s for ${what}; the page shows ${JSON.stringify(shown)};` +
                    ` script errors: ${JSON.stringify(pageErrors)}`);
      throw e;
    }
  };
  // Drops a file on the page, as a user dragging it from a file manager would.
  const drop = (name, content) => page.evaluate(([name, content]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], name, { type: 'application/json' }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, content]);

lap('// 3. Load through');
  // 3. Load through the file picker.
  await page.setInputFiles('#file', replayPath);
  await waitFor(() => window.kdsViewer.state().loaded || window.kdsViewer.state().error, null, 'the replay to load');
  let s = await state();
  equal(s.error, null, 'no error on a good replay');
  equal(s.events, events.length, 'events loaded');
  equal(s.eventIndex, -1, 'starts before the first event');
  check(s.webgl, 'WebGL available (swiftshader)');

  const redPixels = async (selector) => {
    const img = readPng(await page.locator(selector).screenshot());
    let red = 0;
    for (let i = 0; i < img.width * img.height; ++i) {
      const o = i * img.channels;
      if (img.px[o] === 0xdc && img.px[o + 1] === 0x26 && img.px[o + 2] === 0x26) red++;
    }
    return red;
  };
  check((await redPixels('#view2d')) === 0, 'nothing highlighted before the first event');

lap('// 4. Step');
  // 4. Step through events with the "next" button; check time, certificate, objects.
  const checkAt = async (k, how) => {
    s = await state();
    const e = events[k];
    equal(s.eventIndex, k, `${how}: event index`);
    equal(s.time, e.time, `${how}: time of event ${k}`);
    equal(s.highlighted, { event: k, kind: e.kind, bodies: e.bodies }, `${how}: highlighted certificate`);
    const x = expectedAfter(k);
    equal(s.drawn2d.spheres, n, `${how}: spheres drawn in 2D`);
    equal(s.drawn2d.shapes, x.shapes, `${how}: structure shapes drawn in 2D`);
    equal(s.drawn2d.bounds, x.bounds, `${how}: bounds drawn in 2D`);
    equal(s.drawn3d, n + x.bounds + x.shapes, `${how}: objects drawn in 3D`);
    const side = await page.locator('#certificate').innerText();
    check(side.includes(`Event ${k}`) && side.includes(e.kind), `${how}: the side panel names event ${k} and its kind`);
  };
  // The buttons for the first two events, the page's API for the next ones (clicks cost
  // a second each in a loaded machine's software WebGL).
  const steps = Math.min(6, events.length);
  for (let k = 0; k < steps; ++k) {
    if (k < 2) await page.click('#next');
    else await page.evaluate(() => window.kdsViewer.next());
    await checkAt(k, `next x${k + 1}`);
    lap(`step ${k}`);
  }
  await page.click('#prev');
  await checkAt(steps - 2, 'prev');
  // Click in the event list.
  const target = Math.floor(events.length / 2);
  await page.click(`#events [data-event="${target}"]`);
  await checkAt(target, 'event list click');
  lap('list click');
  check((await redPixels('#view2d')) > 0, 'the failing certificate\'s bodies are drawn in red in 2D');
  // The slider: halfway between two events, the time is the slider's and the event the earlier one.
  const tMid = (events[target].time + events[target + 1].time) / 2;
  await page.evaluate((t) => window.kdsViewer.seekTime(t), tMid);
  s = await state();
  check(Math.abs(s.time - tMid) < 1e-15 && s.eventIndex === target && s.time > events[target].time,
        `seek to t = ${tMid} keeps event ${target} (got event ${s.eventIndex} at ${s.time})`);
  lap('red');
  // Play for a moment: time moves forward.
  await page.click('#play');
  await page.waitForTimeout(400);
  // While it plays, every frame redraws both views: a click would wait for the page to
  // settle. Paused through the page's API: a second click on the toggle would start the
  // replay over if it had already reached its end.
  await page.evaluate(() => window.kdsViewer.pause());
  const played = await state();
  check(played.time > tMid, `playing moves time forward (${tMid} -> ${played.time})`);

lap('// 5. Screenshots');
  lap('played');
  // 5. Screenshots of both views, at an event: not blank.
  await page.evaluate((k) => window.kdsViewer.seekEvent(k), target);
  for (const [sel, name] of [['#view2d', 'view2d.png'], ['#view3d', 'view3d.png']]) {
    const png = await page.locator(sel).screenshot();
    writeFileSync(join(work, name), png);
    const st = pixelStats(readPng(png));
    check(st.nonBackground > 0.02 && st.colours > 8,
          `${name} is not blank (${(100 * st.nonBackground).toFixed(1)}% non-background, ${st.colours} colours)`);
  }
  // Another plane changes the 2D picture.
  const before = await page.locator('#view2d').screenshot();
  await page.evaluate(() => window.kdsViewer.setPlane('xz'));
  equal((await state()).plane, 'xz', 'plane switched');
  check(!before.equals(await page.locator('#view2d').screenshot()), 'the x-z projection differs from the x-y one');
  await page.evaluate(() => window.kdsViewer.setPlane('xy'));
  if (args.screenshot) {
    // For the docs: the first event of the most telling kind there is.
    const telling = ['collision', 'bound collision', 'wall'].map((kind) => events.findIndex((e) => e.kind === kind));
    const shown = telling.find((k) => k >= 0) ?? target;
    await page.evaluate((k) => window.kdsViewer.seekEvent(k), shown);
    await checkAt(shown, 'screenshot');
    await page.screenshot({ path: resolve(args.screenshot) });
    console.log(`e2e: page screenshot in ${resolve(args.screenshot)}`);
  }

lap('// 6. Bad files');
  // 6. Bad files: the message names the line and the problem; nothing stays loaded.
  // The truncated file is cut in the middle of the line that holds the file's midpoint:
  // a cut at the midpoint itself can fall on a line's end (the header holds the scenario's
  // path, so the midpoint moves with the build directory), and a file cut there is a
  // shorter valid replay (this failed CI twice, in /check/work/main/build).
  const middle = Math.floor(text.length / 2);
  const lineStart = text.lastIndexOf('\n', middle - 1) + 1;
  const lineEnd = text.indexOf('\n', middle);
  const cut = lineStart + Math.max(1, Math.floor((lineEnd - lineStart) / 2));
  const bad = [
    ['malformed.jsonl', text.split('\n').map((l, i) => (i === 4 ? l.slice(0, 10) + '#' + l.slice(10) : l)).join('\n'),
     /line 5: not JSON/],
    ['other-version.jsonl', text.replace('"kds_trace":1', '"kds_trace":2'), /line 1: a trace of another version \(2/],
    ['truncated.jsonl', text.slice(0, cut), /line \d+: the file ends in the middle of a line: truncated/],
    ['plain-trace.jsonl', text.split('\n')[0] + '\n' + text.split('\n').filter((l) => l.startsWith('{"event"')).join('\n') + '\n',
     /line 2: no scene line: this is a plain trace/],
  ];
  // Each wait is for this file's message: the previous file's is still shown until then.
  check(cut > lineStart && cut < lineEnd, `the truncated file ends inside line ${text.slice(0, cut).split('\n').length}`);
  for (const [name, content, expected] of bad) {
    await page.setInputFiles('#file', { name, mimeType: 'application/json', buffer: Buffer.from(content) });
    await waitFor((name) => window.kdsViewer.state().error?.includes(name), name, `the message about ${name}`);
    s = await state();
    const shown = await page.locator('#error').innerText();
    check(!s.loaded && expected.test(s.error) && shown.includes(name) && expected.test(shown),
          `${name}: the page says ${JSON.stringify(shown)}, expected ${expected}`);
    equal(s.drawn2d.spheres, 0, `${name}: nothing drawn`);
  }

lap('// 7. Drag');
  // 7. Drag and drop loads the replay again.
  await drop('dropped.jsonl', text);
  await waitFor(() => window.kdsViewer.state().loaded, null, 'the dropped replay to load');
  s = await state();
  equal([s.file, s.error, s.events], ['dropped.jsonl', null, events.length], 'drag and drop');
  await page.click('#next');
  await checkAt(0, 'after drop');

  check(pageErrors.length === 0, `no script errors in the page (${pageErrors.join('; ')})`);
} finally {
  await browser.close();
}
if (failures) {
  console.error(`e2e: ${failures} checks failed`);
  process.exit(1);
}
console.log(`e2e: all checks passed (${n} spheres, ${events.length} events; screenshots in ${work})`);
