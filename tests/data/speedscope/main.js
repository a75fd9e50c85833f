// A small CPU-bound program for `node --cpu-prof`: two functions named `work` (a.js, b.js),
// reached from two callers, and a recursive one.
const a = require('./a.js');
const b = require('./b.js');
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function left() { return a.work(200000) + b.work(50000); }
function right() { return a.work(100000) + fib(18); }
let total = 0;
const end = Date.now() + 300;
while (Date.now() < end) total += left() + right();
console.log(total > 0 ? 'done' : 'zero');
