// Loads speedscope 1.25.0's importer and exporter into node from the npm package's browser
// bundle (dist/release/speedscope-*.js), which has no node entry point: the bundle is cut
// right after the statement that starts loading its import module, before the code that
// renders the app, and run with the few browser globals its top level touches. Exports a
// promise of {importProfileGroupFromText, importProfilesFromArrayBuffer, exportProfileGroup}
// (the second is what the app runs on a file it opens: gunzip and pprof tried on the bytes,
// then the text). The minified names below (jr, Sf, kf: the import module; Nm:
// exportProfileGroup of src/lib/file-format.ts) are those of version 1.25.0; another version
// is refused.
const fs = require('fs');
const path = require('path');
module.exports = function load(speedscopeDir) {
  const release = path.join(speedscopeDir, 'dist/release');
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
  new Function(src.slice(0, at + marker.length) + 'globalThis.__ss_import=jr;globalThis.__ss_export=Nm;})();')();
  return globalThis.__ss_import.then(mod => ({
    importProfileGroupFromText: mod.importProfileGroupFromText,
    importProfilesFromArrayBuffer: mod.importProfilesFromArrayBuffer,
    exportProfileGroup: globalThis.__ss_export,
  }));
};
