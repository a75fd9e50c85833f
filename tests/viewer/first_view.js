// Evaluated in the viewer's page by browser_test.js (CCRC_PAGE_SCRIPT): opens each real profile
// the page's ?profiles= names (comma-separated .cctb URLs, converted from tests/data) and checks
// its first view as the page paints it, with the measures tests/cli/readable.test.cpp applies to
// the SVG: rings at least 10 px thick; at least 80 % of the segments with room for a label
// (80 px of arc at mid-radius, 10 px thick) labelled; every label the segment's name (the
// frame's display name, a chain's "first …N… last") or a prefix of it ending in "…", at least
// 9 px, contrasting 4.5:1 with its fill; the table's first eight colors CIE76 12 apart; at
// least half of the cost drawn in segments (their tooltips' self values over the center's
// aggregated value); then its icicle, with rows at least 10 px high and the same measures of
// labels on boxes 80 px wide, and of the cost. Returns {failures, log}.
(async () => {
  const failures = [], log = [];
  const check = (ok, what) => { if (!ok) failures.push(what); };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  while (!(window.ccrcViewer && window.ccrcViewer.ready)) await sleep(10);
  const V = window.ccrcViewer;
  const load = (url) => new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('GET', url);
    x.responseType = 'arraybuffer';
    x.onload = () => resolve(new Uint8Array(x.response));
    x.onerror = () => reject(new Error('cannot load ' + url));
    x.send();
  });
  // sRGB to CIELAB (D65) and WCAG 2's luminance, written here independently of the library.
  const channels = (css) => {
    const c = document.createElement('canvas').getContext('2d');
    c.fillStyle = css;
    c.fillRect(0, 0, 1, 1);
    return [...c.getImageData(0, 0, 1, 1).data].slice(0, 3);
  };
  const linear = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  const contrast = (a, b) => {
    const [la, lb] = [luminance(channels(a)), luminance(channels(b))];
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  };
  const lab = (css) => {
    const [r, g, b] = channels(css).map(linear);
    const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
    const x = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047);
    const y = f(0.2126729 * r + 0.7151522 * g + 0.0721750 * b);
    const z = f((0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883);
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
  };
  const cie76 = (a, b) => Math.hypot(...lab(a).map((v, k) => v - lab(b)[k]));

  // Every label a display name or a prefix of it ending in "…", at least 9 px, contrasting with
  // its fill; at least 80 % of the segments with room (`roomy`) labelled. Returns [roomy, labelled].
  const checkLabels = (name, segments, labels, isRoomy) => {
    const labelled = new Set();
    for (const l of labels) {
      const s = segments[l.segment];
      const named = (path) => (path === '' ? '(root)' : V.displayName(path.slice(path.lastIndexOf(';') + 1)));
      const chain = s.kind !== V.contract.kind.line && s.contexts > 1;
      const between = s.contexts > 2 ? `…${s.contexts - 2}…` : '…';
      const shown = chain ? `${named(s.path)} ${between} ${named(s.last)}` : named(s.path);
      check(l.text.length > 0, `${name}: an empty label on ${s.path}`);
      if (l.text !== shown) {
        const prefix = l.text.slice(0, -1);
        check(l.text.endsWith('…') && prefix.length >= 3 && shown.startsWith(prefix), `${name}: label '${l.text}' of '${shown}'`);
      }
      check(l.font >= 9, `${name}: label '${l.text}' in ${l.font} px`);
      check(contrast(l.color, s.fill) >= 4.5, `${name}: label '${l.text}' ${l.color} on ${s.fill}: ${contrast(l.color, s.fill).toFixed(2)}`);
      labelled.add(l.segment);
    }
    let roomy = 0, roomyLabelled = 0;
    segments.forEach((s, i) => {
      if (s.kind !== 1 || !isRoomy(s)) return;
      ++roomy;
      if (labelled.has(i)) ++roomyLabelled;
    });
    check(roomyLabelled >= 0.8 * roomy, `${name}: ${roomyLabelled} of ${roomy} roomy segments labelled`);
    return [roomy, roomyLabelled];
  };
  // The share of the cost drawn in segments, as their tooltips give it: every segment's own
  // value (a chain's summed over its contexts), lines left out, over the center's aggregated one.
  const drawnShare = (name, segments) => {
    const metric = V.view.metric;
    let drawn = 0;
    segments.forEach((s, i) => { if (s.kind !== V.contract.kind.line) drawn += V.tooltip(i).metrics[metric].self; });
    const share = drawn / V.tooltip(0).metrics[metric].aggregated;
    check(share >= 0.5, `${name}: ${(100 * share).toFixed(1)} % of the cost drawn`);
    return share;
  };

  for (const url of new URLSearchParams(location.search).get('profiles').split(',')) {
    const name = url.slice(url.lastIndexOf('/') + 1);
    check(V.open(await load(url), name), `${name}: ${V.error()}`);
    check(V.view.depth === V.contract.depth.auto, `${name}: opens on the first view, not depth ${V.view.depth}`);
    V.flushTable();
    const segments = V.segments(), labels = V.labels(), radii = V.radii();
    for (let k = 1; k < radii.length; ++k)
      check(radii[k] - radii[k - 1] >= 10 - 1e-3, `${name}: a ring ${(radii[k] - radii[k - 1]).toFixed(2)} px thick`);
    const [roomy, roomyLabelled] = checkLabels(name, segments, labels,
      (s) => (s.r0 + s.r1) / 2 * (s.a1 - s.a0) >= 80 && s.r1 - s.r0 >= 10);
    const drawn = drawnShare(name, segments);
    // The icicle of the same profile: rows at least 10 px high, boxes 80 px wide labelled alike.
    document.querySelector('[data-show="icicle"]').click();
    const boxes = V.segments(), boxLabels = V.labels();
    check(V.view.show === 'icicle' && boxes.length > 0 && boxes[0].x1 > boxes[0].x0, `${name}: no icicle`);
    for (const s of boxes) check(s.y1 - s.y0 >= 10 - 1e-3, `${name}: an icicle row ${(s.y1 - s.y0).toFixed(2)} px high`);
    const [roomyBoxes, boxesLabelled] = checkLabels(name + ' (icicle)', boxes, boxLabels, (s) => s.x1 - s.x0 >= 80 && s.y1 - s.y0 >= 10);
    const boxesDrawn = drawnShare(name + ' (icicle)', boxes);
    document.querySelector('[data-show="ring"]').click();
    const swatches = V.swatches().slice(0, 8);
    check(swatches.length > 0, `${name}: no colors in the table`);
    for (let i = 0; i < swatches.length; ++i)
      for (let j = i + 1; j < swatches.length; ++j)
        check(cie76(swatches[i], swatches[j]) >= 12, `${name}: the table's colors ${i} and ${j} ${cie76(swatches[i], swatches[j]).toFixed(1)} apart`);
    log.push(`${name}: ${radii.length - 1} rings, ${segments.length} segments, ${labels.length} labels, ` +
      `${roomyLabelled} of ${roomy} roomy segments labelled, ${(100 * drawn).toFixed(1)} % of the cost drawn; ` +
      `icicle: ${boxes.length} boxes, ${boxesLabelled} of ${roomyBoxes} roomy labelled, ${(100 * boxesDrawn).toFixed(1)} % drawn; ` +
      `${V.status()}`);
  }
  return {failures, log};
})()
