// node summarize.js SPEEDSCOPE_DIR FILE
// What speedscope makes of FILE (e.g. one ccrc wrote): its importer, run in node by
// load-speedscope.js, then for each profile its name, unit, total weight (non-idle), number
// of frames and number of contexts of its grouped (left-heavy) call tree; and the import time.
const fs = require('fs');
const [dir, file] = process.argv.slice(2);
require('./load-speedscope.js')(dir).then(async ss => {
  const text = fs.readFileSync(file, 'utf8');
  const t0 = process.hrtime.bigint();
  const group = await ss.importProfileGroupFromText(file, text);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!group) throw new Error('speedscope does not recognise the file');
  console.log(`"${group.name}": ${group.profiles.length} profiles, imported in ${ms.toFixed(1)} ms`);
  for (const p of group.profiles) {
    let frames = 0, nodes = 0;
    p.forEachFrame(() => frames++);
    const todo = [p.getGroupedCalltreeRoot()];
    while (todo.length) { const n = todo.pop(); nodes++; for (const c of n.children) todo.push(c); }
    console.log(`  "${p.getName()}" unit ${p.getWeightUnit()} total ${p.getTotalNonIdleWeight()} frames ${frames} contexts ${nodes - 1}`);
  }
}).catch(e => { console.error('error:', e.message); process.exit(1); });
