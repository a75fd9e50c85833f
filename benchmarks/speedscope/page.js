// Run inside speedscope's page by tests/viewer/browser_test.js (CCRC_PAGE_SCRIPT): opens the
// profile named by the page's `profile` query parameter through speedscope's file button,
// then times what speedscope offers of the interactions the viewer's browser test times:
// switching views (time order, left heavy, sandwich: keys 1, 2, 3), searching for `Hash` and
// clearing the search (in the box Ctrl+F opens), and clicking a frame of the flame chart.
// Each interaction is timed from its event to the second animation frame after it, when
// speedscope has drawn its result. Returns {failures, log, timings}.
(async () => {
  const failures = [], log = [];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const until = async (what, f, ms = 180000) => {
    for (const end = performance.now() + ms; !f();) {
      if (performance.now() > end) throw new Error('timed out waiting for ' + what);
      await sleep(10);
    }
  };
  const url = new URLSearchParams(location.search).get('profile');
  const name = url.slice(url.lastIndexOf('/') + 1);
  const bytes = await new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('GET', url);
    x.responseType = 'arraybuffer';
    x.onload = () => resolve(x.response);
    x.onerror = () => reject(new Error('cannot load ' + url));
    x.send();
  });
  await until('the file button', () => document.getElementById('file'));
  const input = document.getElementById('file');
  const files = new DataTransfer();
  files.items.add(new File([bytes], name));
  const t0 = performance.now();
  input.files = files.files;
  input.dispatchEvent(new Event('change', {bubbles: true}));
  await until('the profile', () => document.title.endsWith(' - speedscope'));  // `NAME - speedscope`
  await frames();
  const ready = performance.now() - t0;
  log.push(`${name}: ${bytes.byteLength} bytes, drawn in ${ready.toFixed(0)} ms`);

  const key = (k, options = {}) =>
    window.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true, ...options}));
  const type = (text) => {
    const box = document.querySelector('input:not([type=file])');
    if (!box) throw new Error('no search box');
    box.value = text;
    box.dispatchEvent(new Event('input', {bubbles: true}));
  };
  const click = () => {
    const canvas = [...document.querySelectorAll('canvas')].sort((a, b) => b.width * b.height - a.width * a.height)[0];
    const box = canvas.getBoundingClientRect();
    const at = {bubbles: true, clientX: box.left + box.width * 0.3, clientY: box.top + 60, button: 0};
    for (const kind of ['mousedown', 'mouseup', 'click']) canvas.dispatchEvent(new MouseEvent(kind, at));
  };
  const steps = [
    ['view', () => key('2')],
    ['view', () => key('3')],
    ['view', () => key('1')],
    ['search', () => type('Hash')],
    ['search', () => type('')],
    ['select', click],
  ];
  key('f', {ctrlKey: true});  // the search box, opened once, untimed
  await until('the search box', () => document.querySelector('input:not([type=file])'));
  const timings = [];
  for (let i = 0; i < 60; ++i) {
    const [what, act] = steps[i % steps.length];
    const start = performance.now();
    act();
    await frames();
    timings.push({what, ms: performance.now() - start});
  }
  const ms = timings.map((t) => t.ms).sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  const perKind = {};
  for (const t of timings) (perKind[t.what] = perKind[t.what] || []).push(t.ms);
  const median = (v) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const report = {ready_ms: ready, interactions: ms.length, median_ms: q(0.5), p95_ms: q(0.95), max_ms: ms[ms.length - 1],
    per_interaction_median_ms: Object.fromEntries(Object.entries(perKind).map(([k, v]) => [k, median(v)]))};
  log.push('speedscope timings: ' + JSON.stringify(report));
  if (ms.length !== 60) failures.push(`${ms.length} interactions timed, not 60`);
  return {failures, log, timings: report};
})()
