// node export.js SPEEDSCOPE_DIR IN.cpuprofile OUT.speedscope.json
// Imports IN with speedscope's own importer and writes what its "Export" button writes
// (exportProfileGroup in src/lib/file-format.ts), both taken from speedscope 1.25.0's
// browser bundle (dist/release/speedscope-*.js): the bundle is cut right after the statement
// that starts loading its import module, before the code that renders the app, and the
// import module and the export function are handed out. The two minified names below are
// those of version 1.25.0.
const fs = require('fs');
const path = require('path');
const [dir, input, output] = process.argv.slice(2);
const release = path.join(dir, 'dist/release');
const bundle = fs.readdirSync(release).find(f => /^speedscope-.*\.js$/.test(f));
const src = fs.readFileSync(path.join(release, bundle), 'utf8');
const marker = 'var jr=Promise.resolve().then(()=>(Sf(),kf));';
const at = src.indexOf(marker);
if (at < 0 || !src.includes('function Nm(t){')) throw new Error('not the speedscope 1.25.0 bundle');
globalThis.window = globalThis;
globalThis.location = { hash: '', protocol: 'file:', href: 'file:///' };
globalThis.localStorage = {};
globalThis.matchMedia = () => ({ matches: false, addEventListener() {}, addListener() {} });
globalThis.devicePixelRatio = 1;
globalThis.requestAnimationFrame = f => setTimeout(f, 0);
globalThis.addEventListener = () => {};
new Function(src.slice(0, at + marker.length) +
             'globalThis.__ss_import=jr;globalThis.__ss_export=Nm;})();')();
(async () => {
  const mod = await globalThis.__ss_import;
  const group = await mod.importProfileGroupFromText(path.basename(input), fs.readFileSync(input, 'utf8'));
  fs.writeFileSync(output, JSON.stringify(globalThis.__ss_export(group)) + '\n');
})();
