// Independent check: decode a pprof file with the npm package pprof-format and count the
// distinct call paths (every sample, zero or not; locations reversed, lines last-first).
const fs = require('fs'), zlib = require('zlib');
const { Profile } = require('pprof-format');
let buf = fs.readFileSync(process.argv[2]);
if (buf[0] === 0x1f && buf[1] === 0x8b) buf = zlib.gunzipSync(buf);
const p = Profile.decode(buf);
const str = i => p.stringTable.strings[Number(i)];
const fn = new Map(p.function.map(f => [String(f.id), str(f.name)]));
const loc = new Map(p.location.map(l => [String(l.id), l.line.map(x => fn.get(String(x.functionId)))]));
const paths = new Set(); let zero = 0;
const totals = p.sampleType.map(() => 0);
for (const s of p.sample) {
  const frames = [];
  for (const id of [...s.locationId].reverse()) frames.push(...[...loc.get(String(id))].reverse());
  for (let k = 1; k <= frames.length; ++k) paths.add(frames.slice(0, k).join(';'));
  s.value.forEach((v, i) => totals[i] += Number(v));
  if (s.value.every(v => Number(v) === 0)) ++zero;
}
console.log(p.sampleType.map(t => str(t.type) + '_' + str(t.unit)).join(' '), 'samples', p.sample.length,
            'all-zero', zero, 'paths', paths.size, 'totals', totals.join(' '));
