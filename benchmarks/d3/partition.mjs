// Lays out .cct profiles with d3-hierarchy's partition (what most sunburst charts use), timed,
// beside ccrc's figures for the same trees taken from a Google Benchmark JSON file.
//
//   node --max-old-space-size=8192 partition.mjs [--runs N] [--ccrc FILE.json] TREE.cct...
//
// Per tree: d3.hierarchy (nodes from nested objects), .sum() (ag: every node's value plus its
// descendants'), and partition().size([2 pi, 450]) (angles and radii of every node: a ring
// chart in 1440x900 pixels, no culling). CPU time of the process (its garbage collector's
// threads included; ccrc's figures are CPU time too), median of N runs after one warm-up.
// With --ccrc (repeatable), the ccrc benchmarks `inclusive/NAME` (beside .sum()),
// `ring_layout_uncut/NAME` (every context laid out: the same work as partition) and
// `ring_layout/NAME` (segments under a pixel culled into lines, what ccrc render draws) are
// read from the files, NAME being the tree file's base name (pmd.cct -> pmd).
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { hierarchy, partition } from "d3-hierarchy";
import { cpu, median } from "./timing.mjs";

// A .cct file as nested objects {name, value, children}: the 20-line reader of docs/formats.md.
function readCct(path, metric) {
  const lines = readFileSync(path, "utf8").split("\n");
  if (lines[0] !== "ccrc-cct 1") throw new Error(`${path}: not a .cct file`);
  const metrics = lines[1].split(" ").slice(1);
  const column = metrics.indexOf(metric);
  if (column < 0) throw new Error(`${path}: no metric ${metric} (it has ${metrics.join(", ")})`);
  const frameCount = Number(lines[2].split(" ")[1]);
  const names = ["", ...lines.slice(3, 3 + frameCount)];
  let at = 3 + frameCount;
  if (lines[at].startsWith("sites ")) at += 1 + Number(lines[at].split(" ")[1]);
  const nodeCount = Number(lines[at].split(" ")[1]);
  const nodes = new Array(nodeCount);
  for (let n = 0; n < nodeCount; ++n) {
    const fields = lines[at + 1 + n].split(" ");
    const node = { name: names[Number(fields[1])], value: Number(fields[2 + column]) };
    nodes[n] = node;
    if (n > 0) (nodes[Number(fields[0])].children ??= []).push(node);  // parents come first
  }
  return nodes[0];
}

function ccrcTimes(files) {
  const unit = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const times = new Map();
  for (const file of files) {
    const json = JSON.parse(readFileSync(file, "utf8"));
    for (const b of json.benchmarks) if (b.run_type === "iteration") times.set(b.name, b.cpu_time * unit[b.time_unit]);
  }
  return times;
}

const args = process.argv.slice(2);
let runs = 5;
const ccrcFiles = [];
const files = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--ccrc") ccrcFiles.push(args[++i]);
  else files.push(args[i]);
}
if (files.length === 0) {
  console.error("usage: node partition.mjs [--runs N] [--ccrc BENCHMARKS.json] TREE.cct...");
  process.exit(2);
}
const ccrc = ccrcTimes(ccrcFiles);
const fmt = (ms) => (ms === undefined ? "pending" : ms < 10 ? ms.toPrecision(2) : ms.toFixed(0));
const ratio = (theirs, ours) => (ours === undefined || ours <= 0 ? "" : ` (${(theirs / ours).toFixed(0)}x)`);

console.log(`d3-hierarchy ${JSON.parse(readFileSync(new URL("./node_modules/d3-hierarchy/package.json", import.meta.url))).version}, ` +
            `node ${process.version}; CPU milliseconds, median of ${runs} runs; ccrc from ${ccrcFiles.join(", ") || "(no --ccrc file)"}`);
console.log("(Nx): d3's time over ccrc's: sum beside inclusive, partition beside the uncut ring layout (the same");
console.log("work) and beside the culled one (what a viewer draws)");
console.log("tree          nodes    read  hierarchy    sum  partition | ccrc inclusive   ring, uncut   ring, culled");
for (const file of files) {
  const name = basename(file).replace(/\.cct$/, "");
  let t = cpu();
  const data = readCct(file, "bytecodes");
  const readMs = cpu() - t;
  const times = { hierarchy: [], sum: [], partition: [] };
  let nodes = 0;
  for (let run = 0; run <= runs; ++run) {
    t = cpu();
    const root = hierarchy(data);
    const t1 = cpu();
    root.sum((d) => d.value);
    const t2 = cpu();
    partition().size([2 * Math.PI, 450])(root);
    const t3 = cpu();
    if (run === 0) { nodes = root.descendants().length - 1; continue; }  // warm-up
    times.hierarchy.push(t1 - t), times.sum.push(t2 - t1), times.partition.push(t3 - t2);
  }
  const [h, s, p] = [median(times.hierarchy), median(times.sum), median(times.partition)];
  const inclusive = ccrc.get(`inclusive/${name}`), uncut = ccrc.get(`ring_layout_uncut/${name}`);
  const culled = ccrc.get(`ring_layout/${name}`);
  console.log(`${name.padEnd(10)} ${String(nodes).padStart(8)} ${readMs.toFixed(0).padStart(7)} ${h.toFixed(1).padStart(10)} ` +
              `${s.toFixed(1).padStart(6)} ${p.toFixed(1).padStart(10)} | ${(fmt(inclusive) + ratio(s, inclusive)).padStart(14)} ` +
              `${(fmt(uncut) + ratio(p, uncut)).padStart(13)} ${(fmt(culled) + ratio(p, culled)).padStart(14)}`);
}
