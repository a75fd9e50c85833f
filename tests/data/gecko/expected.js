// The values tests/formats/gecko.test.cpp expects of firefox.json, computed from the JSON
// by an independent means (plain JavaScript over JSON.parse, no code shared with the reader):
// node expected.js firefox.json
const p = JSON.parse(require("fs").readFileSync(process.argv[2]));
const strip = (s) => s.replace(/(.)\[\d{1,9}\]$/, "$1");
const paths = new Set();
let fibSelf = 0, workSelf = 0, totalSamples = 0, totalTime = 0;
function threads(q, f) { q.threads.forEach(f); (q.processes || []).forEach((s) => threads(s, f)); }
threads(p, (t) => {
  const S = t.samples.schema, K = t.stackTable.schema, F = t.frameTable.schema;
  const name = `${t.processName} (pid ${t.pid}) ${t.name} (tid ${t.tid})`;
  const path = (s) => {
    const names = [];
    for (; s !== null; s = t.stackTable.data[s][K.prefix])
      names.push(strip(t.stringTable[t.frameTable.data[t.stackTable.data[s][K.frame]][F.location]]));
    return names.reverse();
  };
  let time = 0;
  t.samples.data.forEach((row, i) => {
    const names = row[S.stack] === null ? [] : path(row[S.stack]);
    for (let k = 0; k <= names.length; ++k) paths.add([name, ...names.slice(0, k)].join(";"));
    const leaf = names[names.length - 1] || "";
    if (leaf.startsWith("fib (")) ++fibSelf;
    if (leaf.startsWith("work (")) ++workSelf;
    const next = t.samples.data[i + 1];
    time += next ? Math.max(0, next[S.time] - row[S.time]) : p.meta.interval;
  });
  const first = t.samples.data[0][S.time], last = t.samples.data[t.samples.data.length - 1][S.time];
  console.log(name, "samples", t.samples.data.length, "time_ms", time, "= last - first + interval:", last - first + p.meta.interval);
  totalSamples += t.samples.data.length;
  totalTime += time;
});
console.log("contexts", paths.size, "samples", totalSamples, "time_ms", totalTime, "fib self", fibSelf, "work self", workSelf);
