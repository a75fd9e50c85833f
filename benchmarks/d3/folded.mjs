// Reads a folded-stacks file into a d3-hierarchy as a JavaScript viewer would, timed, beside
// ccrc's reader of the same file taken from a Google Benchmark JSON file.
//
//   node --max-old-space-size=8192 folded.mjs [--runs N] [--ccrc FILE.json] FILE.folded
//
// The JavaScript reader does what the folded-to-d3 code of flame graph viewers does: split the
// text into lines, peel the counts off the end of each, split the stack on ';' and walk it
// from the root, finding or adding each frame among its parent's children (a Map per node, by
// name); then d3.hierarchy over those nested nodes and .sum() of the first metric. The text is
// decoded in 64 MiB pieces cut at a newline: V8 holds no string above 2^29 characters, so
// readFileSync(path, "utf8") of a 1 GB file fails. CPU time of the process, median of N runs
// after one warm-up. With --ccrc, ccrc's `read_path_mapped` and `read_path_stream`
// (ccrc_bench_folded with CCRC_BENCH_FOLDED=FILE.folded) are read from the file.
import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { hierarchy } from "d3-hierarchy";
import { cpu, median } from "./timing.mjs";

function readFolded(path) {
  const root = { name: "root", values: null, children: new Map() };
  let metrics = 0;  // counts at the end of a line: from '# metrics:' or the first line
  let nodes = 1;
  const addLine = (line) => {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "") return;
    if (line.startsWith("#")) {
      const m = /^#\s*metrics:\s*(.*)$/.exec(line);
      if (m) metrics = m[1].trim().split(/\s+/).length;
      return;
    }
    if (metrics === 0) metrics = line.split(" ").reverse().findIndex((t) => Number.isNaN(Number(t)));
    const counts = new Array(metrics);
    let end = line.length;
    for (let k = metrics - 1; k >= 0; --k) {
      const space = line.lastIndexOf(" ", end - 1);
      counts[k] = Number(line.slice(space + 1, end));
      end = space;
    }
    let node = root;
    for (const name of line.slice(0, end).split(";")) {
      let child = node.children.get(name);
      if (child === undefined) {
        child = { name, values: null, children: new Map() };
        node.children.set(name, child);
        ++nodes;
      }
      node = child;
    }
    if (node.values === null) node.values = counts;
    else for (let k = 0; k < metrics; ++k) node.values[k] += counts[k];
  };
  const fd = openSync(path, "r");
  const chunk = Buffer.allocUnsafe(64 << 20);
  let carry = "";
  for (let got; (got = readSync(fd, chunk, 0, chunk.length, null)) > 0;) {
    const cut = chunk.lastIndexOf(10, got - 1);
    if (cut < 0) {
      carry += chunk.toString("utf8", 0, got);
      continue;
    }
    const lines = (carry + chunk.toString("utf8", 0, cut)).split("\n");
    for (const line of lines) addLine(line);
    carry = chunk.toString("utf8", cut + 1, got);
  }
  closeSync(fd);
  addLine(carry);
  return { root, nodes };
}

const args = process.argv.slice(2);
let runs = 3;
let ccrcFile = null;
let file = null;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--ccrc") ccrcFile = args[++i];
  else file = args[i];
}
if (file === null) {
  console.error("usage: node folded.mjs [--runs N] [--ccrc BENCHMARKS.json] FILE.folded");
  process.exit(2);
}

const read = [], build = [], sum = [];
let nodes = 0, total = 0;
for (let run = 0; run <= runs; ++run) {
  const t0 = cpu();
  const parsed = readFolded(file);
  const t1 = cpu();
  const h = hierarchy(parsed.root, (d) => d.children.values());
  const t2 = cpu();
  h.sum((d) => (d.values === null ? 0 : d.values[0]));
  const t3 = cpu();
  nodes = parsed.nodes;
  total = h.value;
  if (run === 0) continue;  // the warm-up
  read.push(t1 - t0);
  build.push(t2 - t1);
  sum.push(t3 - t2);
}

const ccrc = new Map();
if (ccrcFile) {
  const unit = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  for (const b of JSON.parse(readFileSync(ccrcFile, "utf8")).benchmarks)
    if (b.run_type === "iteration") ccrc.set(b.name, b.cpu_time * unit[b.time_unit]);
}

const version = JSON.parse(readFileSync(new URL("./node_modules/d3-hierarchy/package.json", import.meta.url))).version;
const mb = statSync(file).size / 1e6;
const ns = (ms) => `${((ms * 1e6) / nodes).toFixed(0)} ns/node`;
const js = median(read) + median(build);
console.log(`${file}: ${mb.toFixed(0)} MB, ${nodes} nodes (the root included), first metric's total ${total}`);
console.log(`d3-hierarchy ${version}, node ${process.version}; CPU ms, median of ${runs} runs after a warm-up`);
console.log(`  JavaScript: lines to nested nodes ${median(read).toFixed(0)}, d3.hierarchy ${median(build).toFixed(0)}: ` +
            `${js.toFixed(0)} (${ns(js)}); .sum() ${median(sum).toFixed(0)} more`);
for (const name of ["read_path_mapped", "read_path_stream"]) {
  const ms = ccrc.get(name);
  if (ms !== undefined) console.log(`  ccrc ${name}: ${ms.toFixed(0)} (${ns(ms)}): JavaScript / ccrc = ${(js / ms).toFixed(1)}x`);
}
