// A small workload whose argument changes its mix of work: `node work.js sort` spends most of
// its time sorting numbers, `node work.js text` building and searching text; both also
// round-trip some JSON. The work is fixed: runs of one mode differ only by the machine's noise.
'use strict';

function numbers(n, seed) {
  const out = new Array(n);
  let x = seed;
  for (let i = 0; i < n; ++i) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = x;
  }
  return out;
}

function sortNumbers(rounds) {
  let first = 0;
  for (let r = 0; r < rounds; ++r) first += numbers(60000, r + 1).sort((a, b) => a - b)[0];
  return first;
}

function buildText(words) {
  const parts = [];
  for (let i = 0; i < words; ++i) parts.push('word' + (i % 97) + (i % 5 === 0 ? '.' : ''));
  return parts.join(' ');
}

function searchText(rounds) {
  let found = 0;
  for (let r = 0; r < rounds; ++r) {
    const text = buildText(40000);
    found += (text.match(/word(1|2)3\b/g) || []).length + text.split('.').length;
  }
  return found;
}

function roundTrip(rounds) {
  let size = 0;
  for (let r = 0; r < rounds; ++r) {
    const doc = {rows: numbers(2000, r).map((v, i) => ({id: i, value: v % 1000, name: 'row' + i}))};
    size += JSON.parse(JSON.stringify(doc)).rows.length;
  }
  return size;
}

const mode = process.argv[2] === 'text' ? 'text' : 'sort';
const result = mode === 'sort' ? sortNumbers(6) + searchText(1) : searchText(16) + sortNumbers(1);
console.log(mode, result + roundTrip(8));
