// Bundles the viewer into ONE self-contained HTML file (script and style inline), since
// browsers refuse ES modules over file://. Usage:
//   node build.mjs [OUT.html]        (default dist/kds-viewer.html)
// esbuild and three are looked up in the node_modules of the current directory first
// (the build runs `npm ci` in its own folder: viewer/CMakeLists.txt), then next to this file.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const modules = [join(process.cwd(), 'node_modules'), join(here, 'node_modules')];
const require = createRequire(join(process.cwd(), 'package.json'));
let esbuild;
try {
  esbuild = require(require.resolve('esbuild', { paths: modules }));
} catch (e) {
  console.error(`kds viewer: esbuild not found in ${modules.join(' or ')}: run npm ci (${e.message})`);
  process.exit(1);
}
const out = resolve(process.argv[2] ?? join(here, 'dist', 'kds-viewer.html'));
const result = await esbuild.build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  format: 'iife',
  minify: true,
  write: false,
  nodePaths: modules,
  target: ['chrome100', 'firefox100', 'safari15'],
  legalComments: 'none',
  logLevel: 'warning',
});
// A script's text must not close its own element.
const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script');
const style = readFileSync(join(here, 'src', 'style.css'), 'utf8');
const page = readFileSync(join(here, 'src', 'index.html'), 'utf8')
  .replace('/*STYLE*/', () => style)
  .replace('/*SCRIPT*/', () => script);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, page);
console.log(`kds viewer: ${out} (${Math.round(page.length / 1024)} KiB)`);
