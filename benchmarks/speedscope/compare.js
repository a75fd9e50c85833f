// node compare.js SPEEDSCOPE_DIR CCRC_TOOL FILE...
// For each FILE: speedscope's importer in a fresh node process (import.js, under the timeout
// CCRC_IMPORT_TIMEOUT_S, default 1800 s, and node's default heap unless NODE_OPTIONS says
// otherwise), and `ccrc stats FILE --json --timings` (the least CPU time of three runs).
// Prints one markdown row per file: size, the importer speedscope chose, its wall and CPU
// time, ccrc's read phase (wall) and the CPU time of its whole command, the ratio of CPU
// times (on a shared machine wall times mostly measure the other jobs), the contexts of
// both trees, and the totals: speedscope's (summed over its profiles) beside the ccrc
// metric whose total is nearest, with their relative difference; or speedscope's error.
// Then every result as JSON lines, for the record, with the load average when each file
// was done.
//   node compare.js --table RESULTS               the table again from those lines
//   node compare.js --reuse RESULTS CCRC_TOOL FILE...   speedscope's results taken from them,
//                                                 ccrc measured again
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const args = process.argv.slice(2);
const mode = args[0] === '--table' || args[0] === '--reuse' ? args.shift() : 'run';
const results = mode === 'run' ? null : args.shift();
const [dir, tool, ...files] = mode === '--reuse' ? [null, ...args] : args;
const timeout = 1000 * Number(process.env.CCRC_IMPORT_TIMEOUT_S || 1800);

function speedscope(file) {
  const r = spawnSync(process.execPath, [path.join(__dirname, 'import.js'), dir, file],
                      { timeout, encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = (r.stdout || '').trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    const why = r.error && r.error.code === 'ETIMEDOUT' ? `no result after ${timeout / 1000} s (killed)`
      : ((r.stderr || '').split('\n').find(l => /FATAL ERROR|Error/.test(l)) || `exit ${r.status} ${r.signal || ''}`).trim();
    return { file: path.basename(file), bytes: fs.statSync(file).size, error: why };
  }
}

// `ccrc stats FILE` three times, timed by bash (milliseconds): the run with the least CPU time
// (user + system, of the whole command: reading, then its statistics, which only adds to
// ccrc's time), its read phase (wall), and the totals it prints.
function ccrc(file) {
  let best = null;
  for (let i = 0; i < 3; ++i) {
    const r = spawnSync('bash', ['-c', 'TIMEFORMAT="ccrc-time %3U %3S"; time "$@"', 'bash', tool, 'stats', file, '--json', '--timings'],
                        { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) return { error: (r.stderr || '').trim() };
    const err = r.stderr.trim().split('\n');
    const [, user, sys] = err.find(l => l.startsWith('ccrc-time ')).split(' ').map(Number);
    const read_ms = JSON.parse(err.find(l => l.startsWith('{"phases_ms"'))).phases_ms.read;
    const run = { read_ms, cpu_ms: 1000 * (user + sys), stats: JSON.parse(r.stdout) };
    if (!best || run.cpu_ms < best.cpu_ms) best = run;
  }
  return best;
}

const fmt = x => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

// The table's row of one file's results.
function row(s, c) {
  const mb = s.bytes ? (s.bytes / 1e6).toFixed(1) : '';
  const ccrc_ms = c.error ? `error: ${c.error}` : `${fmt(c.read_ms)} ms (${fmt(c.cpu_ms)})`;
  if (s.error) return `| ${s.file} | ${mb} | ${s.importer || ''} | error: ${s.error} | ${ccrc_ms} | | | |`;
  // speedscope's non-idle weight (what it shows) and its total weight (an evented profile's
  // span, gaps included), summed over its profiles; the one nearer a ccrc total is reported.
  let nearest = null;
  for (const kind of ['non_idle', 'total']) {
    const sum = s.profiles.reduce((a, p) => a + (p[kind] ?? NaN), 0);
    for (const m of c.stats ? c.stats.metrics : []) {
      const diff = Math.abs(m.total - sum) / Math.max(Math.abs(sum), 1e-300);
      if (!nearest || diff < nearest.diff) nearest = { ...m, diff, sum, kind };
    }
  }
  const total = nearest ? nearest.sum : s.profiles.reduce((a, p) => a + p.total, 0);
  const span = nearest && nearest.kind === 'total' ? ' (span)' : '';
  const same = !nearest ? '' : nearest.diff === 0 ? 'equal' : `differ by ${(100 * nearest.diff).toPrecision(2)} %`;
  // Contexts: speedscope's over its profiles' call trees; ccrc's (`nodes`) count one more frame
  // per thread or profile a file holds several of.
  const contexts = s.profiles.reduce((a, p) => a + p.contexts, 0);
  return `| ${s.file} | ${mb} | ${(s.importer || '').replace(/^Importing (as |from )?/, '')} | ` +
         `${fmt(s.wall_ms)} ms (${fmt(s.cpu_ms)}) | ${ccrc_ms} | ${c.error ? '' : (s.cpu_ms / c.cpu_ms).toFixed(0) + 'x'} | ` +
         `${fmt(contexts)} / ${c.stats ? fmt(c.stats.nodes) : '-'} | ` +
         `${fmt(total)}${span} / ${nearest ? fmt(nearest.total) + ' ' + nearest.name : '-'} (${same}) |`;
}

console.log('| file | MB | speedscope reads it as | speedscope import, wall (CPU) | ccrc stats: read, wall (CPU of the command) | CPU ratio | contexts: speedscope / ccrc | totals: speedscope / ccrc |');
console.log('|---|---|---|---|---|---|---|---|');
const records = [];
if (mode === '--table') {
  for (const line of fs.readFileSync(results, 'utf8').split('\n'))
    if (line.startsWith('{')) records.push(JSON.parse(line));
  for (const r of records) console.log(row(r.speedscope, r.ccrc));
} else {
  const earlier = new Map();  // --reuse: speedscope's results by file name
  if (results)
    for (const line of fs.readFileSync(results, 'utf8').split('\n'))
      if (line.startsWith('{')) earlier.set(JSON.parse(line).speedscope.file, JSON.parse(line).speedscope);
  for (const file of files) {
    const s = earlier.get(path.basename(file)) || speedscope(file), c = ccrc(file);
    records.push({ speedscope: s, ccrc: c, load: os.loadavg()[0] });
    console.log(row(s, c));
  }
  console.log();
  for (const r of records) console.log(JSON.stringify(r));
}
