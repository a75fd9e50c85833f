// Trims a Gecko profile that Firefox wrote to a test file of a few hundred KB: keeps
// the structure and every table that the samples use, as Firefox wrote them; empties
// what ccrc does not read and what is large (markers, libs, counters, logs), and keeps only
// the threads named on the command line (by "processName|name", "*" for any part).
// node trim.js IN OUT 'Parent Process|Renderer' 'file:// Content|GeckoMain' ...
const fs = require("fs");
const [input, output, ...keep] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(input));
const wanted = (t) => keep.some((k) => {
  const [pn, n] = k.split("|");
  return (pn === "*" || pn === t.processName) && (n === "*" || n === t.name);
});
function trim(q) {
  q.threads = q.threads.filter(wanted);
  for (const t of q.threads) {
    t.markers.data = [];
    delete t.tracedObjectShapes;
    delete t.tracedValues;
  }
  q.libs = [];
  delete q.profilingLog;
  delete q.counters;
  if (q.meta) delete q.meta.markerSchema;
  q.processes = (q.processes || []).map(trim).filter((s) => s.threads.length > 0 || s.processes.length > 0);
  return q;
}
fs.writeFileSync(output, JSON.stringify(trim(p)));
