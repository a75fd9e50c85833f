// node import.js SPEEDSCOPE_DIR FILE
// Times speedscope's importer in node on FILE as the app imports a file it opens
// (importProfilesFromArrayBuffer: the bytes are tried as gzip and as pprof, then decoded as
// text in 128 MB chunks and the format told by the name, then by the content), loaded by
// tests/data/speedscope/load-speedscope.js. The file is read before the clock starts. Prints
// one JSON line: the importer speedscope chose (its own log line), wall and CPU milliseconds
// of the import (CPU: the process's user + system time, GC threads included), the peak
// resident memory, and per profile its name, unit, total weight (the span of an evented
// profile, gaps included) and non-idle weight (the time some frame is open, what speedscope
// shows), frames and the contexts of its grouped call tree (counted after the timing); or the
// error speedscope gave.
const fs = require('fs');
const path = require('path');
const [dir, file] = process.argv.slice(2);
const load = require(path.join(__dirname, '../../tests/data/speedscope/load-speedscope.js'));
const result = { file: path.basename(file), bytes: fs.statSync(file).size };
load(dir).then(async ss => {
  const data = fs.readFileSync(file);
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const log = console.log;
  console.log = (...a) => { result.importer = a.join(' '); };
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let group;
  try {
    group = await ss.importProfilesFromArrayBuffer(path.basename(file), buffer);
  } catch (e) {
    result.error = String(e && e.message || e);
  }
  result.wall_ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  result.cpu_ms = (cpu.user + cpu.system) / 1e3;
  console.log = log;
  result.max_rss_mb = process.resourceUsage().maxRSS / 1024;
  if (!result.error && !group) result.error = 'speedscope does not recognise the file (importer returned null)';
  if (group) {
    result.profiles = group.profiles.map(p => {
      let frames = 0, contexts = -1;
      p.forEachFrame(() => frames++);
      const todo = [p.getGroupedCalltreeRoot()];
      while (todo.length) { const n = todo.pop(); contexts++; for (const c of n.children) todo.push(c); }
      return { name: p.getName(), unit: p.getWeightUnit(), total: p.getTotalWeight(),
               non_idle: p.getTotalNonIdleWeight(), frames, contexts };
    });
  }
  console.log(JSON.stringify(result));
}).catch(e => {
  result.error = String(e && e.message || e);
  console.log(JSON.stringify(result));
});
