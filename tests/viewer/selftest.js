// Evaluated in the viewer's page by browser_test.js: real mouse and input events on the page,
// checked against Figures 1 and 4 of the papers; then the timings on the eclipse CCT whose
// .cctb the page's ?eclipse= names. Returns {failures, log, timings}.
(async () => {
  const failures = [], log = [];
  const check = (ok, what) => { if (!ok) failures.push(what); };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (cond, what, ms = 30000) => {
    const end = performance.now() + ms;
    while (!cond()) {
      if (performance.now() > end) throw new Error('timed out waiting for ' + what);
      await sleep(5);
    }
  };
  await until(() => window.ccrcViewer && window.ccrcViewer.ready, 'the viewer');
  const V = window.ccrcViewer;
  const canvas = document.getElementById('canvas');
  const mouse = (type, x, y) => canvas.dispatchEvent(new MouseEvent(type, {clientX: x, clientY: y, bubbles: true, view: window}));
  const setValue = (id, value, event) => {
    const el = document.getElementById(id);
    el.value = String(value);
    el.dispatchEvent(new Event(event, {bubbles: true}));
  };
  const shown = () => V.segments().map((s) => `${s.path}@${s.depth}`).sort().join(' ');
  const expect = (list) => list.map(([p, d]) => `${p}@${d}`).sort().join(' ');
  const segmentAt = (path) => V.segments().find((s) => s.path === path);

  // Figure 1: main in the center, its 17 callee contexts around it.
  let segs = V.segments();
  check(segs.length === 18, `Figure 1: 18 segments, not ${segs.length}`);
  check(segs[0].path === 'main' && segs[0].kind === 0, `Figure 1: main in the center, not ${segs[0].path}`);
  log.push(`Figure 1: ${segs.length} segments around ${segs[0].path}`);

  // As drawn (segments in one path per color, parted by gaps): each segment in its color,
  // and the side between two neighbours in a ring whiter than either.
  const pixel = (x, y, on = canvas) => {
    const box = on.getBoundingClientRect(), scale = on.width / box.width;
    const [r, g, b, a] = on.getContext('2d').getImageData(Math.floor((x - box.left) * scale), Math.floor((y - box.top) * scale), 1, 1).data;
    return [r, g, b].map((v) => Math.round((v * a + 255 * (255 - a)) / 255));  // over the page's white
  };
  const rgb = (style) => {
    const c = document.createElement('canvas').getContext('2d');
    c.fillStyle = style;
    c.fillRect(0, 0, 1, 1);
    return [...c.getImageData(0, 0, 1, 1).data].slice(0, 3);
  };
  const near = (a, b) => a.every((v, k) => Math.abs(v - b[k]) <= 3);
  // A segment read near its outer edge, clear of the label along its middle.
  const offLabel = (s, center) => {
    if (s.kind === 0) return [center.x, center.y + 0.85 * s.r1];
    const r = (s.r0 + s.r1) / 2, k = (s.r1 - 0.15 * (s.r1 - s.r0) - 1) / r;
    return [center.x + (s.x - center.x) * k, center.y + (s.y - center.y) * k];
  };
  for (const s of segs) {
    if (s.kind === 2) continue;  // a line: no fill
    const at = pixel(...offLabel(s, segs[0]));
    check(near(at, rgb(s.fill)), `Figure 1: ${s.path} drawn ${at} by its outer edge, not ${rgb(s.fill)} (${s.fill})`);
  }
  const sum = (c) => c[0] + c[1] + c[2];
  let gaps = 0;
  for (let i = 1; i + 1 < segs.length; ++i) {
    const a = segs[i], b = segs[i + 1];
    if (a.kind !== 1 || b.kind !== 1 || a.depth !== b.depth) continue;
    // At least a sixth of the way from the lighter fill to white (a half-pixel gap makes a
    // pixel it crosses a quarter white or more).
    const at = pixel(a.endX, a.endY), lighter = Math.max(sum(rgb(a.fill)), sum(rgb(b.fill)));
    check(sum(at) - lighter > (765 - lighter) / 6, `Figure 1: between ${a.path} and ${b.path} ${at}, no gap`);
    ++gaps;
  }
  check(gaps >= 8, `Figure 1: ${gaps} neighbours in a ring`);

  // Click f: Figure 4(a).
  const f = segmentAt('main;f');
  mouse('click', f.x, f.y);
  check(V.view.path === 'main;f', `click f: center main;f, not '${V.view.path}'`);
  check(location.hash.includes('path=main%3Bf'), `click f: the URL holds the path: ${location.hash}`);
  check(shown() === expect([['main;f', 0], ['main;f;g', 1], ['main;f;h', 1], ['main;f;g;h', 2], ['main;f;g;g', 2],
    ['main;f;h;i', 2], ['main;f;g;h;i', 3], ['main;f;g;g;h', 3], ['main;f;g;g;h;i', 4]]), `Figure 4(a): ${shown()}`);
  check(document.getElementById('crumbs').textContent.includes('main › f'), 'click f: breadcrumbs main › f');
  log.push(`Figure 4(a): ${V.segments().length} segments around ${V.view.path}`);

  // Click the center: back to main.
  mouse('click', V.segments()[0].x, V.segments()[0].y);
  await until(() => V.view.path === '', 'back to main');
  check(V.segments().length === 18, 'back: the 18 segments of Figure 1 again');

  // Depth 3: Figure 4(b).
  setValue('depth', 3, 'input');
  check(shown() === expect([['main', 0], ['main;f', 1], ['main;g', 1], ['main;h', 1], ['main;f;g', 2], ['main;f;h', 2],
    ['main;g;h', 2], ['main;g;g', 2], ['main;h;i', 2]]), `Figure 4(b): ${shown()}`);
  log.push(`Figure 4(b): ${V.segments().length} segments, depth ${V.view.depth}`);

  // Search h: its 6 contexts, 1452 of 3238 bytecodes; 3 of them shown at depth 3.
  setValue('search', 'h', 'input');
  const marked = V.segments().filter((s) => s.mark === 1).map((s) => s.path).sort().join(' ');
  check(marked === 'main;f;h main;g;h main;h', `search h: highlighted ${marked}`);
  check(V.status().includes('6 contexts match, 44.84 % of the total'), `search h: ${V.status()}`);
  log.push(`search h: ${marked}; ${V.status()}`);
  // The contexts on the way to a match (main;f;g and main;g;g hide theirs below depth 3) keep
  // their color; a search highlights the chart without laying it out again, as a layout does.
  const containing = V.segments().filter((s) => s.mark === 2).map((s) => s.path).sort().join(' ');
  check(containing === 'main main;f main;f;g main;g main;g;g', `search h: on the way to a match ${containing}`);
  // As drawn: the chart dimmed as a whole (its canvas seen through at 35 %), matches in red on
  // the overlay, the segments on the way to one in their color there, the others left to the
  // dimmed chart (the overlay clear).
  const overlay = document.getElementById('overlay');
  check(canvas.style.opacity === '0.35', `search h: the chart's opacity ${canvas.style.opacity}`);
  const searchedSegs = V.segments();
  for (const s of searchedSegs) {
    if (s.kind === 2) continue;
    const want = s.mark === 1 ? rgb('#d13b2b') : s.mark === 2 ? rgb(s.fill) : [255, 255, 255], got = pixel(...offLabel(s, searchedSegs[0]), overlay);
    check(near(got, want), `search h: ${s.path} (mark ${s.mark}) on the overlay ${got}, not ${want}`);
  }
  const marks = () => V.segments().map((s) => `${s.path}=${s.mark}`).sort().join(' ');
  const searched = marks();
  setValue('sizing', V.view.sizing, 'change');
  check(marks() === searched, `search h: laid out again, ${marks()} instead of ${searched}`);

  // Click h in the table: its contexts, the same share.
  V.flushTable();
  const hRow = [...document.querySelectorAll('#flat tr')].find((r) => r.getAttribute('title') === 'h');
  hRow.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  check(V.view.search === '=h' && V.status().includes('6 contexts match, 44.84 %'), `table h: ${V.view.search} ${V.status()}`);

  // The views beside the ring, on Figure 1 (bytecodes, 3238 in all), each computed by the
  // module and linked to the chart: the call tree, the bottom-up tree, h's callers and callees.
  const show = (name) => document.querySelector(`#shows button[data-show="${name}"]`).dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const tableRows = () => [...document.querySelectorAll('#table-rows .trow')];
  const cells = (r) => [...r.children].map((c) => c.textContent).join('|');
  const rowOf = (name) => tableRows().find((r) => r.children[0].textContent.replace(/^[▸▾]?/, '') === name);
  const click = (el) => el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  setValue('depth', 41, 'input');
  show('calltree');
  check(location.hash.includes('show=calltree') && document.getElementById('tables').style.display === 'flex', `call tree: ${location.hash}`);
  check(tableRows().map(cells).join(' / ') === '▸main|1066|32.9 %|3238|100.0 %', `call tree: ${tableRows().map(cells).join(' / ')}`);
  click(rowOf('main').querySelector('.twisty'));
  // main's callees by total: f 890, h 792, g 490.
  check(tableRows().map(cells).join(' / ') === '▾main|1066|32.9 %|3238|100.0 % / ▸f|180|5.6 %|890|27.5 % / ▸h|432|13.3 %|792|24.5 % / ▸g|180|5.6 %|490|15.1 %',
    `call tree opened: ${tableRows().map(cells).join(' / ')}`);
  click(rowOf('f'));
  check(V.view.path === 'main;f' && V.view.fn === 'f' && location.hash.includes('path=main%3Bf'), `call tree f: ${location.hash}`);
  check(rowOf('f').classList.contains('picked'), 'call tree f: its row picked');
  show('ring');
  check(V.segments().length === 9 && V.segments()[0].path === 'main;f', `ring after the call tree: ${V.segments().length} segments around ${V.segments()[0].path}`);
  // The icicle of the same view: the same contexts, each box's share of the top bar's width
  // its sector's share of the circle; a click on a box selects its context.
  const sectors = new Map(V.segments().map((s) => [s.path, (s.a1 - s.a0) / (2 * Math.PI)]));
  show('icicle');
  const boxes = V.segments(), bar = boxes[0];
  check(location.hash.includes('show=icicle') && boxes.length === 9 && bar.path === 'main;f', `icicle: ${boxes.length} boxes under ${bar.path}`);
  for (const b of boxes.slice(1))
    check(Math.abs((b.x1 - b.x0) / (bar.x1 - bar.x0) - sectors.get(b.path)) < 1e-4 && b.y0 >= bar.y1 - 1e-3,
      `icicle box ${b.path}: ${((b.x1 - b.x0) / (bar.x1 - bar.x0)).toFixed(4)} of the width, its sector ${sectors.get(b.path)}`);
  // Each chart on a canvas of its own, drawn once per layout: back to the ring and again to
  // the icicle, each shows the layout the module kept, as it was drawn (the search's overlay
  // above them aside).
  const icicleCanvas = document.getElementById('icicle-canvas');
  const clearOfLabel = (s, segs) => s.x1 === undefined ? offLabel(s, segs[0]) : [s.x + (s.x1 - s.x0) / 2 - 1.5, s.y + (s.y1 - s.y0) / 2 - 1.5];
  const drawnAsLaidOut = (segs, on) => segs.every((s) => s.kind === 2 || near(pixel(...clearOfLabel(s, segs), on), rgb(s.fill)));
  show('ring');
  check(canvas.style.display === '' && icicleCanvas.style.display === 'none' && drawnAsLaidOut(V.segments(), canvas),
    'ring again: its canvas shown, as drawn before the icicle');
  show('icicle');
  check(canvas.style.display === 'none' && icicleCanvas.style.display === '' && drawnAsLaidOut(V.segments(), icicleCanvas),
    'icicle again: its canvas shown, as drawn before');
  // A search made while the icicle is shown highlights the ring kept: under main;f, the
  // center, g is main;f;g and its recursive call.
  const searchBefore = V.view.search;
  setValue('search', '=g', 'input');
  show('ring');
  const ringMarks = V.segments().filter((s) => s.mark === 1).map((s) => s.path).join(' ');
  check(ringMarks === 'main;f;g main;f;g;g', `ring kept, searched =g in the icicle: ${ringMarks} marked`);
  setValue('search', searchBefore, 'input');
  show('icicle');
  const fg = boxes.find((b) => b.path === 'main;f;g');
  mouse('click', fg.x, fg.y);
  check(V.view.path === 'main;f;g' && V.view.show === 'icicle' && V.segments()[0].path === 'main;f;g', `icicle click: ${V.view.path}`);
  history.back();
  await until(() => V.view.path === 'main;f', 'back to main;f');
  show('ring');
  show('bottomup');
  // main, at the top level, has no callers to open.
  check(tableRows().map(cells).join(' / ') === 'main|1066|32.9 %|1066|32.9 % / ▸h|792|24.5 %|792|24.5 % / ▸i|660|20.4 %|660|20.4 % / ▸g|540|16.7 %|540|16.7 % / ▸f|180|5.6 %|180|5.6 %',
    `bottom-up: ${tableRows().map(cells).join(' / ')}`);
  check(rowOf('f').classList.contains('picked'), 'bottom-up: f, picked in the call tree, picked here');
  click(rowOf('i').querySelector('.twisty'));
  check(cells(tableRows()[3]) === '▸h|660|20.4 %|660|20.4 %', `bottom-up i's callers: ${cells(tableRows()[3])}`);
  click(rowOf('h'));
  check(V.view.fn === 'h' && V.view.search === '=h', `bottom-up h: fn ${V.view.fn}, search ${V.view.search}`);
  show('butterfly');
  // h: self 792, total 1452 (its outermost contexts' aggregated values); called by main (432 of
  // its self, 792 in all), g (240, 440) and f (120, 220); calling i (660, 660).
  check(tableRows().map(cells).join(' / ') === 'main|432|13.3 %|792|24.5 % / g|240|7.4 %|440|13.6 % / f|120|3.7 %|220|6.8 % / ' +
    'h|792|24.5 %|1452|44.8 % / i|660|20.4 %|660|20.4 %', `butterfly h: ${tableRows().map(cells).join(' / ')}`);
  click(tableRows()[4]);
  check(V.view.fn === 'i' && location.hash.includes('fn=i'), `butterfly: i picked, ${location.hash}`);
  log.push(`tables: call tree, bottom-up and h's butterfly as Figure 1 has them; linked to the ring`);
  show('ring');
  // i, picked in a table (where no chart is highlighted), highlighted on the ring shown again.
  const iMarked = V.segments().filter((s) => s.mark === 1).map((s) => s.path).sort().join(' ');
  check(iMarked === 'main;f;g;g;h;i main;f;g;h;i main;f;h;i', `ring after i picked in the butterfly: ${iMarked} marked (${V.view.path})`);
  click(document.querySelector('#crumbs a[data-path=""]'));
  setValue('depth', 3, 'input');
  setValue('search', '=h', 'input');

  // Area sizing: the same segments, rings of equal area.
  setValue('sizing', 'area', 'change');
  check(V.view.sizing === 'area' && location.hash.includes('sizing=area'), `area sizing: ${location.hash}`);
  // Links made before the names were one: mode= for sizing=, colour= for color=.
  const old = V.viewOf('#mode=equal&colour=package&tree=recursion-all');
  check(old.sizing === 'equal' && old.color === 'package' && old.tree === 'recursion', `an old link: sizing ${old.sizing}, color ${old.color}, tree ${old.tree}`);
  check(V.segments().length === 9, `area sizing: 9 segments, not ${V.segments().length}`);

  // Recursion eliminated (the papers' Figure 8): 12 contexts; kept again: 18.
  setValue('depth', 41, 'input');
  setValue('tree', 'recursion', 'change');
  check(V.segments().length === 12 && location.hash.includes('tree=recursion'), `recursion eliminated: ${V.segments().length} segments`);
  // The call graph's display tree (ccrc::display_tree): a node per call, children under each
  // function's master only: main -> {f -> {g, h}, g -> {g, h}, h -> {i}}.
  setValue('tree', 'callgraph', 'change');
  check(shown() === expect([['main', 0], ['main;f', 1], ['main;g', 1], ['main;h', 1], ['main;f;g', 2], ['main;f;h', 2],
    ['main;g;g', 2], ['main;g;h', 2], ['main;h;i', 2]]) && location.hash.includes('tree=callgraph'), `display tree: ${shown()}`);
  // h_main holds h's self cost in the calls from main (432 of its 792 bytecodes), and i_h below
  // it, the master of i, every call h -> i (660): aggregated 1092.
  const hMain = segmentAt('main;h');
  mouse('mousemove', hMain.x, hMain.y);
  const hTip = document.getElementById('tip').textContent;
  check(hTip.includes('bytecodes: self 432, aggregated 1,092'), `display tree, hover h_main: ${hTip}`);
  // The tip is placed by its size computed from its lines, not read back from the page.
  const tipBox = document.getElementById('tip').getBoundingClientRect(), tipSize = V.tipSize();
  check(Math.abs(tipBox.width - tipSize.width) < 1 && Math.abs(tipBox.height - tipSize.height) < 1,
    `the tip's size: ${tipSize.width} x ${tipSize.height} computed, ${tipBox.width} x ${tipBox.height} laid out`);
  log.push(`display tree: ${V.segments().length} segments`);
  setValue('tree', 'contexts', 'change');
  check(V.segments().length === 18, `recursion kept: ${V.segments().length} segments`);

  // Compared with the first run `ccrc view --compare` embedded (tests/data/viewer/first.folded),
  // where main;f and main;g took a third of the bytecodes each: in Figure 1 they take 890 and
  // 490 of 3238 (27.49 % and 15.13 %), so both are faster; main, 100 % of both, is unchanged;
  // the 15 other contexts are new (ccrc::diff_ring).
  const FASTER = 3, NEW = 5;
  const classOf = (path) => segmentAt(path).diff;
  check(classOf('main') === 0 && classOf('main;f') === FASTER && classOf('main;g') === FASTER &&
    V.segments().filter((x) => x.diff === NEW).length === 15, `compare: ${V.segments().map((x) => x.path + '=' + x.diff).join(' ')}`);
  check(V.status().includes('compared with first.folded: 2 faster, 15 new'), `compare: ${V.status()}`);
  const fSeg = segmentAt('main;f');
  mouse('mousemove', fSeg.x, fSeg.y);
  const fTip = document.getElementById('tip').textContent;
  check(fTip.includes('faster: H -5.85 % (33.33 % of the first run, 27.49 % of this one)'), `compare, hover main;f: ${fTip}`);
  log.push(`compare: ${V.status()}`);
  // The display tree is no calling context tree: the comparison is off there, and says why.
  setValue('tree', 'callgraph', 'change');
  check(V.status().includes('off (the comparison is of the calling contexts as read)') && V.segments().every((x) => x.diff === -1),
    `compare on the display tree: ${V.status()}`);
  setValue('tree', 'contexts', 'change');
  check(classOf('main;f') === FASTER, 'compare: back on the calling contexts');
  // A file that is no profile keeps the first run; no bytes end the comparison.
  check(!V.openBaseline(new TextEncoder().encode('main;f x\n'), 'bad.folded') && V.error().includes('line 1'), `compare, bad file: ${V.error()}`);
  check(classOf('main;f') === FASTER, 'compare, bad file: the first run stays');
  document.getElementById('uncompare').dispatchEvent(new MouseEvent('click', {bubbles: true}));
  check(V.segments().every((x) => x.diff === -1) && !V.status().includes('compared'), `compare ended: ${V.status()}`);
  // Opened in the page: the same first run again.
  const first = '# metrics: calls bytecodes\nmain 1 1000\nmain;f 10 1000\nmain;g 10 1000\n';
  check(V.openBaseline(new TextEncoder().encode(first), 'first.folded') && classOf('main;f') === FASTER, `compare opened: ${V.error()}`);
  V.openBaseline(new Uint8Array(0), '');
  // Backspace goes back too.
  const g = segmentAt('main;g');
  mouse('click', g.x, g.y);
  check(V.view.path === 'main;g', `click g: center '${V.view.path}'`);
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Backspace', bubbles: true}));
  await until(() => V.view.path === '', 'Backspace back to main');
  setValue('depth', 3, 'input');

  // Hover: the call stack and every metric.
  const fh = segmentAt('main;f;h');
  mouse('mousemove', fh.x, fh.y);
  const tip = document.getElementById('tip').textContent;
  check(tip.includes('main\n  f\n    h') && tip.includes('bytecodes: self 120, aggregated 220') &&
    tip.includes('calls: self 20, aggregated 40'), `hover main;f;h: ${tip}`);

  // A bad file: the reader's message, the profile kept.
  const ok = V.open(new TextEncoder().encode('main;f 1\nmain;g x\n'), 'bad.folded');
  check(!ok && V.error().includes('line 2'), `bad file: ${V.error()}`);
  check(V.segments().length === 9, 'bad file: the previous profile stays');
  log.push(`bad file: ${V.error()}`);

  // Issue 45: a method whose name holds '&lt;' or '&amp;' as text, picked in the table, is
  // searched by that name (the title's entities were decoded twice: 'a<b' was searched); a
  // link to a context the profile does not have shows its nearest caller's chart, and says so
  // (the page said 'no profile').
  const viewBefore = location.hash;
  // An ensemble (two runs: main;f 10 and 10, main;g 10 and 30, as `ccrc ensemble -o` writes
  // it) colored by the coefficient of variation of its inclusive values, as `ccrc render` does:
  // main 10/30 (20-50 %, orange), main;g 10/20 (50-100 %, red), main;f 0 (pale blue).
  const ensemble = '# metrics: samples_mean samples_min samples_max samples_std samples_min_inc samples_max_inc samples_std_inc runs_present\n' +
    'main 0 0 0 0 20 40 10 2\nmain;f 10 10 10 0 10 10 0 2\nmain;g 20 10 30 10 10 30 10 2\n';
  history.replaceState(null, '', '#');
  check(V.open(new TextEncoder().encode(ensemble), 'ensemble.folded'), `ensemble: ${V.error()}`);
  const fillOf = Object.fromEntries(V.segments().map((x) => [x.path, x.fill]));
  check(fillOf['main'] === 'rgb(249,142,63)' && fillOf['main;g'] === 'rgb(200,52,31)' && fillOf['main;f'] === 'rgb(214,230,242)',
    `ensemble fills: ${JSON.stringify(fillOf)}`);
  check(V.status().includes('coefficient of variation of samples over 2 runs (pale blue CV under 5 %'), `ensemble caption: ${V.status()}`);
  log.push(`ensemble: ${V.status()}`);
  // perf script, whose frame names may hold ';' (a folded stack's may not).
  const entities = 'prog 1 1.0: c:\n\t10 a&lt;b (/x)\n\t20 main (/x)\n\nprog 1 2.0: c:\n\t11 x&amp;y (/x)\n\t20 main (/x)\n';
  check(V.open(new TextEncoder().encode(entities), 'entities.perf'), `entities: ${V.error()}`);
  setValue('search', '', 'input');
  V.flushTable();
  const entityRow = [...document.querySelectorAll('#flat tr')].find((r) => r.getAttribute('title') === 'a&lt;b');
  check(entityRow !== undefined, `entities: no row for a&lt;b in ${V.table()}`);
  if (entityRow) {
    entityRow.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    check(V.view.search === '=a&lt;b' && V.status().includes('1 contexts match'), `entities: picked ${V.view.search}, ${V.status()}`);
  }
  history.pushState(null, '', '#path=' + encodeURIComponent('prog 1;main;nowhere;deeper'));
  window.dispatchEvent(new PopStateEvent('popstate'));
  check(V.view.path === 'prog 1;main' && V.segments().length > 0 && V.segments()[0].path === 'prog 1;main' &&
    !location.hash.includes('nowhere'), `a path not there: center '${V.view.path}', ${V.segments().length} segments, ${location.hash}`);
  check(V.error() === "no calling context 'prog 1;main;nowhere;deeper' here: shown from its caller 'prog 1;main'", `a path not there: ${V.error()}`);
  log.push(`a path not there: ${V.error()}`);
  history.pushState(null, '', viewBefore);
  window.dispatchEvent(new PopStateEvent('popstate'));

  // A file dropped on the chart, and one chosen with the file button (read by FileReader).
  const fileOf = (text, name) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], name));
    return dt;
  };
  const chartBox = canvas.parentElement;
  chartBox.dispatchEvent(new DragEvent('drop', {dataTransfer: fileOf('main;f 1\nmain;g 2\n', 'dropped.folded'), bubbles: true, cancelable: true}));
  await until(() => document.title.startsWith('dropped.folded'), 'the dropped file');
  check(V.segments().length === 3, `dropped file: main, f and g, not ${V.segments().length} segments`);
  const picker = document.getElementById('file');
  picker.files = fileOf('main;a;b 5\n', 'picked.folded').files;
  picker.dispatchEvent(new Event('change', {bubbles: true}));
  await until(() => document.title.startsWith('picked.folded'), 'the picked file');
  check(V.segments().length === 3, `picked file: main, a and b, not ${V.segments().length} segments`);
  log.push(`dropped and picked files: ${document.title}`);

  // The eclipse CCT: open, then 100 interactions and 100 hovers, timed.
  const eclipse = new URLSearchParams(location.search).get('eclipse');
  const report = {failures, log};
  if (eclipse) {
    history.replaceState(null, '', '#');
    const bytes = await new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open('GET', eclipse);
      x.responseType = 'arraybuffer';
      x.onload = () => resolve(new Uint8Array(x.response));
      x.onerror = () => reject(new Error('cannot load ' + eclipse));
      x.send();
    });
    V.resetTimings();
    const t0 = performance.now();
    check(V.open(bytes, 'eclipse.cctb'), `eclipse: ${V.error()}`);
    const ready = performance.now() - t0;
    const contexts = V.segments().length;
    log.push(`eclipse: ${bytes.length} bytes, ready in ${ready.toFixed(0)} ms, ${contexts} segments`);
    V.resetTimings();
    const metrics = document.getElementById('metric').options.length;
    // Where to click is found before the clock starts: V.segments() decodes every segment's path.
    const target = (i) => (i % 11 === 0 ? V.segments().filter((x) => x.depth === 1 && x.kind === 1)[0] : i % 11 === 1 ? V.segments()[0] : null);
    const steps = [
      async (s) => mouse('click', s.x, s.y),
      async (s) => { const n = V.timings.length; mouse('click', s.x, s.y); await until(() => V.timings.length > n, 'back'); },
      async () => setValue('depth', 6, 'input'),
      async () => setValue('depth', 41, 'input'),
      async () => setValue('sizing', 'area', 'change'),
      async () => setValue('sizing', 'equal', 'change'),
      async () => setValue('sizing', 'angle', 'change'),
      async () => setValue('metric', 1 % metrics, 'change'),
      async () => setValue('metric', 0, 'change'),
      async () => setValue('search', 'Hash', 'input'),
      async () => setValue('search', '', 'input'),
    ];
    // Each interaction timed twice: the page's own work (the library's layout, the canvas
    // calls, the controls), and from the event to the second animation frame after it, when
    // the browser has drawn the result, as speedscope is timed (benchmarks/speedscope/).
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // The floor of that measure: the same wait around no interaction at all (two frames, as
    // the loop starts each interaction just after a frame begins).
    const floor = [];
    for (let i = 0; i < 20; ++i) {
      await frames();
      const start = performance.now();
      await frames();
      floor.push(performance.now() - start);
    }
    const framed = [], framedByStep = [];
    for (let i = 0; i < 100; ++i) {
      await frames();
      const at = target(i);
      const start = performance.now();
      await steps[i % steps.length](at);
      await frames();
      framed.push(performance.now() - start);
      (framedByStep[i % steps.length] = framedByStep[i % steps.length] || []).push(performance.now() - start);
    }
    const sorted = (xs) => xs.slice().sort((a, b) => a - b);
    const quantile = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
    const ms = sorted(V.timings.map((t) => t.ms));
    const q = (p) => quantile(ms, p);
    // Hover: 100 points on a spiral over the chart.
    const box = canvas.getBoundingClientRect();
    for (let i = 0; i < 100; ++i) {
      const r = (i / 100) * Math.min(box.width, box.height) / 2, a = i * 2.4;
      mouse('mousemove', box.left + box.width / 2 + r * Math.sin(a), box.top + box.height / 2 - r * Math.cos(a));
    }
    const hover = V.hoverMs().slice().sort((a, b) => a - b);
    // The deepest segment shown: its tip holds the innermost frames that fit the window, the
    // outer ones counted, and fits the window.
    const deepest = V.segments().filter((s) => s.kind === 1)  // a ring segment (not the center, not a line)
      .reduce((a, b) => (b.path.split(';').length > a.path.split(';').length ? b : a));
    const depth = deepest.path.split(';').length;
    mouse('mousemove', deepest.x, deepest.y);
    const deepTip = document.getElementById('tip').textContent.split('\n'), deepBox = document.getElementById('tip').getBoundingClientRect();
    const elided = /^… (\d+) outer frames$/.exec(deepTip[0]);
    const shownFrames = deepTip.filter((l) => !/: self |% of the center|more callees|^… /.test(l)).length;
    check(deepBox.top >= 0 && deepBox.bottom <= window.innerHeight &&
      (elided ? Number(elided[1]) + shownFrames === depth : deepTip.length * 15 < window.innerHeight),
      `the tip of ${depth} frames: ${deepTip.length} lines, ${deepBox.top}-${deepBox.bottom} of ${window.innerHeight}: ${deepTip.slice(0, 2)}`);
    log.push(`deepest tip: ${depth} frames, ${deepTip[0]}`);
    await sleep(50);
    const table = V.tableMs().slice().sort((a, b) => a - b);
    report.timings = {ready_ms: ready, interactions: ms.length, median_ms: q(0.5), p95_ms: q(0.95), max_ms: ms[ms.length - 1],
      hover_median_ms: hover[Math.floor(hover.length / 2)], hover_p95_ms: hover[Math.floor(0.95 * hover.length)],
      table_updates: table.length, table_median_ms: table[Math.floor(table.length / 2)], table_p95_ms: table[Math.floor(0.95 * table.length)],
      canvas: `${box.width}x${box.height}`, window: `${window.innerWidth}x${window.innerHeight}`,
      library_median_ms: quantile(sorted(V.timings.map((t) => t.library_ms)), 0.5),
      draw_median_ms: quantile(sorted(V.timings.map((t) => t.draw_ms)), 0.5),
      framed_median_ms: quantile(sorted(framed), 0.5), framed_p95_ms: quantile(sorted(framed), 0.95),
      framed_floor_median_ms: quantile(sorted(floor), 0.5)};
    // The call graph's display tree, built on first use (the call graph, then G_T): timed once,
    // apart from the interactions.
    const g0 = performance.now();
    setValue('tree', 'callgraph', 'change');
    report.timings.display_tree_ms = performance.now() - g0;
    check(V.view.tree === 'callgraph' && V.segments().length > 1, `eclipse display tree: ${V.segments().length} segments`);
    log.push(`eclipse display tree: ${V.segments().length} segments`);
    // Compared with itself (reading the first run, matching 2.17 million contexts pair by
    // pair, the diff, the chart): timed once; nothing changed.
    setValue('tree', 'contexts', 'change');
    const c0 = performance.now();
    check(V.openBaseline(bytes, 'eclipse.cctb'), `eclipse compared with itself: ${V.error()}`);
    report.timings.compare_ms = performance.now() - c0;
    check(V.status().includes('compared with eclipse.cctb: no change'), `eclipse compared with itself: ${V.status()}`);
    V.openBaseline(new Uint8Array(0), '');
    // The views beside the ring: the first use of each timed once (the bottom-up tree's top
    // level is a walk over every context; the butterfly builds Kaes's call graph), then 60
    // interactions in them (switching view, opening a row, picking a function), timed.
    const timeOnce = (f) => { const start = performance.now(); f(); return performance.now() - start; };
    report.view_first_ms = {
      calltree: timeOnce(() => show('calltree')), bottomup: timeOnce(() => show('bottomup')),
      butterfly: timeOnce(() => { click(tableRows()[0]); show('butterfly'); }),
    };
    check(tableRows().length > 3, `eclipse butterfly: ${tableRows().length} rows`);
    // Its lines drawn as the tables' are, only those on screen: scrolled to the end, the last
    // ones (the callees', or how many more there are).
    const lines = () => [...document.querySelectorAll('#table-rows > *')];
    const onScreen = Math.ceil(window.innerHeight / 20) + 2, scroller = document.getElementById('table-scroll');
    const butterflyLines = parseFloat(document.getElementById('table-spacer').style.height) / 20;
    check(butterflyLines > onScreen && lines().length === onScreen, `eclipse butterfly: ${lines().length} of its ${butterflyLines} lines drawn`);
    scroller.scrollTop = scroller.scrollHeight;
    scroller.dispatchEvent(new Event('scroll'));
    await frames();
    const lastDrawn = parseFloat(document.getElementById('table-rows').style.top) / 20 + lines().length;
    check(lastDrawn >= butterflyLines && lines().length <= onScreen && /callees|more/.test(lines().map((l) => l.textContent).join(' ')),
      `eclipse butterfly scrolled to its end: lines up to ${lastDrawn} of ${butterflyLines} drawn, ${lines().length} in all`);
    // Shares below 1 % to two digits: no row of a non-zero cost reads 0.0 %.
    const zeroShares = tableRows().map((r) => [...r.children].map((c) => c.textContent))
      .filter(([, self, selfShare, total, totalShare]) => (Number(self) !== 0 && selfShare === '0.0 %') || (Number(total) !== 0 && totalShare === '0.0 %'));
    check(zeroShares.length === 0, `eclipse butterfly: rows with a cost but a share of 0.0 %: ${zeroShares.slice(0, 3).join(' / ')}`);
    log.push(`eclipse butterfly: ${butterflyLines} lines, ${onScreen} drawn at a time`);
    scroller.scrollTop = 0;
    scroller.dispatchEvent(new Event('scroll'));
    await frames();
    V.resetTimings();
    const viewSteps = [
      () => show('calltree'), () => click(tableRows()[Math.min(3, tableRows().length - 1)].querySelector('.twisty')),
      () => show('bottomup'), () => click(tableRows()[1].querySelector('.twisty')), () => click(tableRows()[2]),
      () => show('butterfly'), () => { const rows = tableRows(); click(rows[rows.length - 1]); }, () => show('icicle'), () => show('ring'),
    ];
    for (let i = 0; i < 64; ++i) {
      await frames();
      viewSteps[i % viewSteps.length]();
    }
    const viewMs = sorted(V.timings.map((t) => t.ms));
    const viewKinds = {};
    for (const t of V.timings) (viewKinds[t.what] = viewKinds[t.what] || []).push(t.ms);
    report.view_per_interaction_median_ms = Object.fromEntries(Object.entries(viewKinds).map(([k, v]) => [k, quantile(sorted(v), 0.5)]));
    log.push('views per interaction, median ms: ' + JSON.stringify(report.view_per_interaction_median_ms));
    log.push('views, slowest: ' + V.timings.slice().sort((a, b) => b.ms - a.ms).slice(0, 6)
      .map((t) => `${t.what} ${t.ms.toFixed(1)} ms (layout and search ${t.library_ms.toFixed(1)}, table ${t.draw_ms.toFixed(1)})`).join('; '));
    report.view_timings = {interactions: viewMs.length, median_ms: quantile(viewMs, 0.5), p95_ms: quantile(viewMs, 0.95), max_ms: viewMs[viewMs.length - 1]};
    log.push('eclipse views: first use ' + JSON.stringify(report.view_first_ms) + ', then ' + JSON.stringify(report.view_timings));
    check(viewMs.length >= 64, `eclipse views: ${viewMs.length} timed interactions`);
    const perKind = {};
    for (const t of V.timings) (perKind[t.what] = perKind[t.what] || []).push(t.ms);
    report.per_interaction_median_ms = Object.fromEntries(Object.entries(perKind).map(([k, v]) => [k, v.sort((a, b) => a - b)[Math.floor(v.length / 2)]]));
    log.push('eclipse timings: ' + JSON.stringify(report.timings));
    // What the 95th percentile is made of: the six slowest interactions.
    log.push('slowest: ' + V.timings.slice(0, 100).sort((a, b) => b.ms - a.ms).slice(0, 6)
      .map((t) => `${t.what} ${t.ms.toFixed(1)} ms (library ${t.library_ms.toFixed(1)}, drawing ${t.draw_ms.toFixed(1)}, ${t.segments} segments)`).join('; '));
    const stepNames = ['select', 'back', 'depth 6', 'depth all', 'area', 'equal', 'angle', 'metric 2', 'metric 1', 'search', 'clear search'];
    report.per_step_framed_median_ms = Object.fromEntries(framedByStep.map((v, i) => [stepNames[i], quantile(sorted(v), 0.5)]));
    log.push('per interaction, median ms: ' + JSON.stringify(report.per_interaction_median_ms));
    log.push('per interaction, to the second frame, median ms: ' + JSON.stringify(report.per_step_framed_median_ms));
    check(ms.length >= 100, `eclipse: ${ms.length} timed interactions`);
  }
  return report;
})()
