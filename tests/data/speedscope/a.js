// One of two files with a function named `work`: the profile must keep them apart.
function work(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i) * Math.sin(i);
  return s;
}
module.exports = { work };
