// The contract between the viewer's module and its page, checked from their sources: every
// module function the page calls is defined (VIEWER_API in examples/viewer/*.cpp) and
// exported (examples/viewer/CMakeLists.txt's list), every one defined is exported, and the page
// reads no segment or record field or enum code by number (it takes them from ccrc_contract()).
//
//   node contract_check.js examples/viewer
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8');
const page = read('viewer.js');
const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.cpp')).map(read).join('\n');
const cmake = read('CMakeLists.txt');

const called = new Set([...page.matchAll(/m\._(ccrc_\w+)/g), ...page.matchAll(/cwrap\('(ccrc_\w+)'/g)].map((x) => x[1]));
const defined = new Set([...sources.matchAll(/VIEWER_API[^(]*?\b(ccrc_\w+)\(/g)].map((x) => x[1]));
const list = /set\(viewer_exports([^)]*)\)/.exec(cmake);
const exported = new Set(list ? [...list[1].matchAll(/_(ccrc_\w+)/g)].map((x) => x[1]) : []);

const failures = [];
for (const f of called) {
  if (!defined.has(f)) failures.push(`the page calls ${f}, which no VIEWER_API defines`);
  if (!exported.has(f)) failures.push(`the page calls ${f}, which the export list leaves out`);
}
for (const f of defined) if (!exported.has(f)) failures.push(`${f} is defined but not exported`);
for (const f of exported) if (!defined.has(f)) failures.push(`${f} is exported but not defined`);
// Offsets and codes by number: a record read as X[i * FLOATS + 3], a label code masked by a digit.
for (const [what, re] of [['a segment field by number', /\*\s*(FLOATS|INTS)\s*\+\s*\d/], ['a label code by number', /fit\s*&\s*\d/],
  ['a depth code by number', /view\.depth\s*[<>=!]=*\s*-?\d/],
  ['a record field at an offset of its own', /(get|set)(Float64|Int32|Uint32)\([^,)]*\+\s*\d/]]) {
  const hit = re.exec(page);
  if (hit) failures.push(`viewer.js reads ${what}: '${hit[0]}'`);
}
if (called.size < 10 || defined.size < 10) failures.push(`too few functions found: ${called.size} called, ${defined.size} defined`);
if (failures.length) {
  console.log('FAIL:\n  ' + failures.join('\n  '));
  process.exit(1);
}
console.log(`OK: the page calls ${called.size} of the module's ${defined.size} functions, all defined and exported`);
