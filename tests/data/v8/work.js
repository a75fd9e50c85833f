// A small deterministic workload for `node --cpu-prof` and `node --heap-prof` (see README.md).
'use strict';
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function allocate(rounds) {
  const keep = [];
  for (let i = 0; i < rounds; ++i) keep.push({ index: i, text: 'item ' + i, list: new Array(16).fill(i) });
  return keep;
}
const sorter = (a, b) => a - b;
function sortNumbers(count) {
  const values = [];
  for (let i = 0; i < count; ++i) values.push((i * 7919) % 10007);
  return values.sort(sorter);
}
let total = 0;
const kept = [];
for (let round = 0; round < 6; ++round) {
  total += fib(24);
  kept.push(allocate(4000));
  total += sortNumbers(20000)[0];
  total += (function () { let s = 0; for (let i = 0; i < 200000; ++i) s += i % 3; return s; })();
}
console.log(total, kept.length);
