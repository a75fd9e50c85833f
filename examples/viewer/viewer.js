// The ring-chart viewer's page: draws the segments the WebAssembly module (viewer.cpp) lays
// out and wires the controls. No layout or profile logic here: every segment's place and every
// value comes from the library; the page only decides how a segment is painted.
'use strict';
(function () {
  // The contract with the module (viewer.cpp's ccrc_contract): each segment's record, its fields
  // by name (FF, IF: their offsets), every enum's codes, and the records a layout and a search
  // are asked for and handed back in, read from the module when it loads.
  let C = null, FLOATS = 0, INTS = 0, FF = {}, IF = {}, KIND_CENTER = 0, KIND_LINE = 0, MATCH = 0;
  const $ = (id) => document.getElementById(id);
  // A canvas for each chart, kept as last drawn (a switch back to a layout the module kept
  // draws it again only where the search changed: on the overlay).
  const panes = {ring: {canvas: $('canvas'), drawn: 0, labels: [], read: {serial: -1}}, icicle: {canvas: $('icicle-canvas'), drawn: 0, labels: [], read: {serial: -1}}};
  for (const pane of Object.values(panes)) pane.ctx = pane.canvas.getContext('2d');
  const paneShown = () => (chart.icicle ? panes.icicle : panes.ring);
  const overlay = $('overlay'), octx = overlay.getContext('2d');
  const ui = {
    depth: $('depth'), depthValue: $('depth-value'), sizing: $('sizing'), metric: $('metric'), tree: $('tree'),
    color: $('color'), search: $('search'), part: $('part'), min: $('min'), status: $('status'),
    crumbs: $('crumbs'), error: $('error'), shows: $('shows'), chartBox: $('chart'), tables: $('tables'),
    tableScroll: $('table-scroll'), tableSpacer: $('table-spacer'), tableRows: $('table-rows'), tableTitle: $('table-title'), baseline: $('baseline'), uncompare: $('uncompare'), flat: $('flat'), tip: $('tip'), file: $('file'), drop: $('drop'),
  };
  const DEPTH_ALL = 41;  // the depth slider's last position: every level (its first, 0: the first view's)
  let baselineName = '';

  let m = null;       // the module
  let api = null;     // its functions
  // The profile shown and what the page shows of it: made whole by freshState, at the start and
  // for each profile opened, so that nothing of the last one lingers. (The canvases' drawings
  // are known by the module's layout serials, which keep counting from one profile to the next.)
  let metrics, primary, view, chart, laid, searching, searchInfo, tableRowsShown, selectedNode, butterflyLines, butterflyWhole;
  // `info`: the profile's (ccrc_profile_info), its view read from the URL; none: no profile yet.
  function freshState(info) {
    const state = {
      metrics: info ? info.metrics : [],  // metric names of the profile
      primary: info ? info.primary : 0,   // the metric shown unless the URL names one (ccrc::primary_metric)
      // The view: the sizing, tree, coloring and part searched by name (the contract's names;
      // their codes are the module's), the depth as the layout request takes it.
      view: {path: '', depth: null, sizing: 'angle', metric: 0, tree: 'auto', color: 'method', search: '', part: 'name', min: '', show: 'ring', fn: ''},
      chart: {count: 0, floats: null, ints: null, labels: [], cx: 0, cy: 0, icicle: false, serial: -1},
      // The record of the last layout or highlight (the contract's layout_result; none yet: no segment, no match).
      laid: {count: -1, matches: 0, match_share: 0},
      searching: false,  // a search is highlighted
      searchInfo: '',    // what it found, for the status line
      tableRowsShown: [],  // the table's rows on screen: {row, id, full, state}
      selectedNode: -1,    // the call tree's row for the chart's center
      // The butterfly's lines, as the module gave them (its callers and callees, at most
      // BUTTERFLY_ROWS each), drawn as the tables are: only those on screen.
      butterflyLines: [], butterflyWhole: 0,
    };
    if (info) state.view = viewOf(location.hash, state);
    return state;
  }
  function adopt(state) {
    ({metrics, primary, view, chart, laid, searching, searchInfo, tableRowsShown, selectedNode, butterflyLines, butterflyWhole} = state);
  }
  adopt(freshState());
  const SHOWS = ['ring', 'icicle', 'calltree', 'bottomup', 'butterfly'];
  // Whether the view shown is a chart (the ring or the icicle) rather than a table.
  const charted = () => view.show === 'ring' || view.show === 'icicle';
  let size = {w: 0, h: 0};
  const timings = [];  // {what, ms}: every interaction's layout and drawing, for the tests

  // ---- the view <-> the URL fragment
  function fragmentOf(v) {
    const p = new URLSearchParams();
    if (v.path) p.set('path', v.path);
    if (v.depth !== C.depth.auto) p.set('depth', v.depth === C.depth.all ? 'all' : String(v.depth));
    p.set('sizing', v.sizing);
    if (metrics[v.metric] !== undefined) p.set('metric', metrics[v.metric]);
    if (v.tree !== 'auto') p.set('tree', v.tree);
    if (v.color !== 'method') p.set('color', v.color);
    if (v.search) p.set('search', v.search);
    if (v.part !== 'name') p.set('part', v.part);
    if (v.min !== '') p.set('min', v.min);
    if (v.show !== 'ring') p.set('show', v.show);
    if (v.fn) p.set('fn', v.fn);
    return '#' + p.toString();
  }
  // The trees' names in links made before they were the tool's (`ccrc render --tree`).
  const OLD_TREES = {cct: 'contexts', 'recursion-all': 'recursion'};
  // The view a URL fragment names, of the profile shown (or of `profile`: its metrics and primary).
  function viewOf(fragment, profile = {metrics, primary}) {
    const {metrics, primary} = profile;
    const p = new URLSearchParams(fragment.replace(/^#/, ''));
    const named = (enumeration, name, fallback) => (name !== null && name in enumeration ? name : fallback);
    const levels = parseInt(p.get('depth'), 10);
    return {path: p.get('path') || '', depth: p.get('depth') === 'all' ? C.depth.all : levels > 0 ? levels : C.depth.auto,
      sizing: named(C.sizing, p.get('sizing') ?? p.get('mode'), 'angle'), metric: metrics.includes(p.get('metric')) ? metrics.indexOf(p.get('metric')) : primary,
      tree: named(C.tree, OLD_TREES[p.get('tree')] ?? p.get('tree'), 'auto'), color: named(C.color, p.get('color') ?? p.get('colour'), 'method'), search: p.get('search') || '',
      part: named(C.part, p.get('part'), 'name'), min: p.get('min') || '',
      show: SHOWS.includes(p.get('show')) ? p.get('show') : 'ring', fn: p.get('fn') || ''};
  }

  // ---- colors: the library's palette color of each segment (ccrc::chart_colors), as 0xrrggbb
  // Each color's string made once: a chart repeats a few dozen colors over thousands of segments.
  const colors = [new Map(), new Map()];  // fill, line -> by 0xrrggbb
  const LINE_SHADE = 0.6, DIM_KEEP = 0.35;
  function color(rgb, variant) {
    let c = colors[variant].get(rgb);
    if (c !== undefined) return c;
    const channel = (k) => {
      const v = (rgb >> (16 - 8 * k)) & 255;
      return Math.round(variant === 1 ? v * LINE_SHADE : v);
    };
    c = `rgb(${channel(0)},${channel(1)},${channel(2)})`;
    colors[variant].set(rgb, c);
    return c;
  }

  // ---- the records exchanged with the module: each field read or written by its name, at the
  // offset and as the type the contract describes (a text field takes a string, copied into the
  // module's memory for the call; read, it is the text's address).
  const ACCESS = {f64: ['getFloat64', 'setFloat64'], i32: ['getInt32', 'setInt32'], u32: ['getUint32', 'setUint32']};
  function readRecord(record, address) {
    const memory = new DataView(m.HEAPU8.buffer), out = {};
    for (const [name, [type, offset]] of Object.entries(record.fields)) out[name] = memory[ACCESS[type][0]](address + offset, true);
    return out;
  }
  // Calls call(address) with `values` as a record in the module's memory; every field is given.
  function withRecord(record, values, call) {
    const texts = {}, kept = [];
    for (const name of Object.keys(record.fields)) {
      if (values[name] === undefined) throw new Error(`no ${name} for the module's record`);
      if (typeof values[name] !== 'string') continue;
      const bytes = new TextEncoder().encode(values[name]), p = m._malloc(bytes.length + 1);
      m.HEAPU8.set(bytes, p);
      m.HEAPU8[p + bytes.length] = 0;
      kept.push((texts[name] = p));
    }
    const address = m._malloc(record.size);
    kept.push(address);
    const memory = new DataView(m.HEAPU8.buffer);  // after the allocations, which may grow the memory
    for (const [name, [type, offset]] of Object.entries(record.fields)) memory[ACCESS[type][1]](address + offset, texts[name] ?? values[name], true);
    try { return call(address); } finally { for (const p of kept) m._free(p); }
  }

  // ---- layout and drawing
  function layout() {
    const icicle = view.show === 'icicle';
    const request = {width: size.w, height: size.h, min_px: 1, path: view.path, depth: view.depth, sizing: C.sizing[view.sizing],
      metric: view.metric, tree: C.tree[view.tree], color_by: C.color[view.color], chart: C.chart[icicle ? 'icicle' : 'ring']};
    laid = withRecord(C.records.layout_request, request, (p) => readRecord(C.records.layout_result, api.layout(p)));
    if (laid.count < 0) { chart.count = 0; chart.serial = -1; return; }
    const instead = laid.nearest_caller;
    if (instead) {
      // A link to a context this profile (or the tree shown) does not have: its nearest caller's
      // chart, that path from now on, and why.
      const near = m.UTF8ToString(instead);
      showError(`no calling context '${view.path}' here: shown from ${near ? `its caller '${near}'` : 'the top'}`);
      view.path = near;
      history.replaceState(history.state, '', fragmentOf(view));
    }
    viewSegments(laid);
    const serial = laid.serial;
    if (serial === chart.serial) return;  // the layout read last, handed back: its labels and center as read
    chart.icicle = icicle;
    chart.serial = serial;
    // A layout the module kept (the other chart's, on a switch back to it) is read once.
    const read = (icicle ? panes.icicle : panes.ring).read;
    if (read.serial !== serial) {
      Object.assign(read, {serial, labels: m.UTF8ToString(laid.labels).split('\n'), cx: laid.center_x, cy: laid.center_y, rings: laid.rings});
    }
    Object.assign(chart, {labels: read.labels, cx: read.cx, cy: read.cy, rings: read.rings});
  }
  // The segment arrays in the module's memory, seen afresh after every call that may have grown it.
  function viewSegments(record) {
    const n = record.count;
    chart.count = n;
    chart.floats = new Float32Array(m.HEAPF32.buffer, record.floats, n * FLOATS);
    chart.ints = new Int32Array(m.HEAP32.buffer, record.ints, n * INTS);
  }

  // Two canvases, one above the other: the chart as laid out, with its labels (its pane), drawn
  // once per layout, and above it the search's highlight. A search moves no segment, so it
  // redraws only the upper one: the chart below dimmed as a whole, and above it the segments
  // that hold a match with their labels, matches and culled lines that hide one in red, those
  // on the way to one in their color.
  const NORMAL = 0, HIGHLIGHTED = 1, SKIPPED = -1;
  function clear(c) {
    const dpr = window.devicePixelRatio || 1;
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.clearRect(0, 0, size.w, size.h);
  }
  function drawChart() {
    const pane = paneShown();
    panes.ring.canvas.style.display = chart.icicle ? 'none' : '';
    panes.icicle.canvas.style.display = chart.icicle ? '' : 'none';
    if (pane.drawn === chart.serial) return;
    pane.drawn = chart.serial;
    clear(pane.ctx);
    drawSegments(pane.ctx, () => NORMAL);
    drawEdges(pane.ctx);
    pane.labels = drawLabels(pane.ctx, () => true);
  }
  // A dark band along the outer arc (the lower side, in an icicle) of each segment whose callees
  // lie beyond the edge.
  function drawEdges(c) {
    const F = chart.floats, I = chart.ints, Q = Math.PI / 2;
    const byColor = new Map();
    for (let i = 0; i < chart.count; ++i) {
      if (I[i * INTS + IF.edge] !== 1) continue;
      const key = colorKey(i, NORMAL), batch = byColor.get(key);
      if (batch === undefined) byColor.set(key, [i]); else batch.push(i);
    }
    c.lineWidth = 3;
    for (const [key, batch] of byColor) {
      c.beginPath();
      for (const i of batch) {
        if (chart.icicle) {
          const y = F[i * FLOATS + FF.y1] - 1.5;
          c.moveTo(F[i * FLOATS + FF.x0] + 0.5, y);
          c.lineTo(F[i * FLOATS + FF.x1] - 0.5, y);
          continue;
        }
        const r = F[i * FLOATS + FF.r1] - 1.5, a0 = F[i * FLOATS + FF.a0], a1 = F[i * FLOATS + FF.a1];
        const inset = Math.min(0.5 / Math.max(r, 1), (a1 - a0) / 4);
        c.moveTo(chart.cx + r * Math.sin(a0 + inset), chart.cy - r * Math.cos(a0 + inset));
        c.arc(chart.cx, chart.cy, r, a0 + inset - Q, a1 - inset - Q);
      }
      c.strokeStyle = lineStyle(key, NORMAL);
      c.stroke();
    }
  }
  function drawHighlight() {
    clear(octx);
    // Dimmed by its canvas's opacity, labels and all: no segment without a match is drawn again.
    paneShown().canvas.style.opacity = searching ? String(DIM_KEEP) : '';
    if (!searching) return;
    const I = chart.ints, marked = (i) => I[i * INTS + IF.highlight] !== 0;
    drawSegments(octx, (i) => {
      if (!marked(i)) return SKIPPED;
      return I[i * INTS + IF.highlight] === MATCH || I[i * INTS + IF.kind] === KIND_LINE ? HIGHLIGHTED : NORMAL;
    });
    drawLabels(octx, marked);
  }
  // The segments, each drawn as lookOf(i) says: a ring sector, a full ring, the center's disc,
  // or a line for culled callees. Drawn in batches, one path and one fill for each color (a
  // chart repeats a few hundred colors over thousands of segments), on the context's own path:
  // a Path2D object per batch made the page's garbage, and drawings now and then three times
  // slower. Segments are parted by a white gap of GAP pixels, each drawn that much smaller
  // rather than outlined: stroking thousands of outlines costs as much as filling them.
  // Highlighted segments are outlined in dark red instead, over the gaps.
  const GAP = 0.5, FLAT = 0.1;
  // What colors segment i in a look: its fill (0xrrggbb: the library's palette or diff class),
  // or the highlight's. A number, so that batches are found by it cheaply.
  const HIGHLIGHT = 0xd13b2b;  // ccrc::highlight_color
  function colorKey(i, look) { return look === HIGHLIGHTED ? HIGHLIGHT : chart.ints[i * INTS + IF.fill]; }
  function fillStyle(key) { return color(key, 0); }
  function lineStyle(key, look) { return color(key, look === HIGHLIGHTED ? 0 : 1); }
  function drawSegments(c, lookOf) {
    const I = chart.ints;
    // Per look, the segments by color key (colorKey).
    const fills = [new Map(), new Map()], lines = [new Map(), new Map()];
    for (let i = 0; i < chart.count; ++i) {
      const look = lookOf(i);
      if (look === SKIPPED) continue;
      const key = colorKey(i, look);
      const batches = (I[i * INTS + IF.kind] === KIND_LINE ? lines : fills)[look];
      const batch = batches.get(key);
      if (batch === undefined) batches.set(key, [i]); else batch.push(i);
    }
    fills.forEach((batches, look) => {
      for (const [key, batch] of batches) {
        c.beginPath();
        for (const i of batch) shape(c, i, look === HIGHLIGHTED ? 0 : GAP / 2);
        c.fillStyle = fillStyle(key);
        c.fill('evenodd');
        if (look === HIGHLIGHTED) {
          c.strokeStyle = '#7a1a0f';
          c.lineWidth = 0.5;
          c.stroke();
        }
      }
    });
    lines.forEach((batches, look) => {
      for (const [key, batch] of batches) {
        c.beginPath();
        for (const i of batch) shape(c, i, 0);
        c.strokeStyle = lineStyle(key, look);
        c.lineWidth = look === HIGHLIGHTED ? 1.5 : 0.75;
        c.stroke();
      }
    });
  }
  // Adds segment i to the path being built: its sector, ring, disc or box drawn `inset` pixels
  // inside its bounds, or its line.
  function shape(p, i, inset) {
    if (chart.icicle) { box(p, i, inset); return; }
    const F = chart.floats, I = chart.ints, cx = chart.cx, cy = chart.cy, Q = Math.PI / 2, TURN = 2 * Math.PI;
    const r0 = F[i * FLOATS + FF.r0], r1 = F[i * FLOATS + FF.r1], a0 = F[i * FLOATS + FF.a0], a1 = F[i * FLOATS + FF.a1], kind = I[i * INTS + IF.kind];
    if (kind === KIND_LINE) {
      const a = (a0 + a1) / 2, s = Math.sin(a), co = Math.cos(a);
      p.moveTo(cx + r0 * s, cy - r0 * co);
      p.lineTo(cx + r1 * s, cy - r1 * co);
      return;
    }
    // Each shape starts where its first arc does: within one path, an arc is otherwise joined
    // to the end of the shape before it.
    const outer = r1 - inset, inner = r0 > 0 ? r0 + inset : 0;
    if (kind === KIND_CENTER || a1 - a0 >= TURN - 1e-6) {
      p.moveTo(cx + outer, cy);
      p.arc(cx, cy, outer, 0, TURN);
      if (kind !== KIND_CENTER && inner > 0) { p.moveTo(cx + inner, cy); p.arc(cx, cy, inner, 0, TURN, true); }
      return;
    }
    // The gap along the sides, as angles at either radius (a point where the inner arc is
    // shorter than the gap).
    const outerGap = Math.min(inset / outer, (a1 - a0) / 2), innerGap = inner > 0 ? Math.min(inset / inner, (a1 - a0) / 2) : 0;
    p.moveTo(cx + outer * Math.sin(a0 + outerGap), cy - outer * Math.cos(a0 + outerGap));
    if (outer * (a1 - a0) * (a1 - a0) < 8 * FLAT) {
      // Thin: its arcs are straight within FLAT pixels (the arc's sagitta, r (a1 - a0)^2 / 8),
      // and four lines cost less than two arcs.
      p.lineTo(cx + outer * Math.sin(a1 - outerGap), cy - outer * Math.cos(a1 - outerGap));
      p.lineTo(cx + inner * Math.sin(a1 - innerGap), cy - inner * Math.cos(a1 - innerGap));
      p.lineTo(cx + inner * Math.sin(a0 + innerGap), cy - inner * Math.cos(a0 + innerGap));
    } else {
      p.arc(cx, cy, outer, a0 + outerGap - Q, a1 - outerGap - Q);
      p.arc(cx, cy, inner, a1 - innerGap - Q, a0 + innerGap - Q, true);
    }
    p.closePath();
  }

  function box(p, i, inset) {
    const F = chart.floats, x0 = F[i * FLOATS + FF.x0], x1 = F[i * FLOATS + FF.x1], y0 = F[i * FLOATS + FF.y0], y1 = F[i * FLOATS + FF.y1];
    if (chart.ints[i * INTS + IF.kind] === KIND_LINE) {
      p.moveTo((x0 + x1) / 2, y0);
      p.lineTo((x0 + x1) / 2, y1);
      return;
    }
    const dx = Math.min(inset, (x1 - x0) / 4);
    p.rect(x0 + dx, y0 + inset, Math.max(0, x1 - x0 - 2 * dx), Math.max(0, y1 - y0 - 2 * inset));
  }

  // The labels the library fitted (ccrc::fit_label): in the center horizontally; across a ring
  // along the middle ray; along a ring curved on its middle circle, in straight pieces that stray
  // less than half a pixel from it, the way it reads upright; in an icicle's box, from its left
  // edge.
  const glyphWidths = new Map();  // font size -> character -> width
  function glyphWidth(c, font, ch) {
    let widths = glyphWidths.get(font);
    if (widths === undefined) glyphWidths.set(font, (widths = new Map()));
    let w = widths.get(ch);
    if (w === undefined) widths.set(ch, (w = c.measureText(ch).width));
    return w;
  }
  // Draws the labels of the segments `which` picks (their highlight's colors on the overlay);
  // returns them, for the tests.
  function drawLabels(c, which) {
    const F = chart.floats, I = chart.ints, cx = chart.cx, cy = chart.cy, dpr = window.devicePixelRatio || 1;
    c.textAlign = chart.icicle ? 'left' : 'center';
    c.textBaseline = 'middle';
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    const painted = [];
    let k = 0, font = 0;
    for (let i = 0; i < chart.count; ++i) {
      const fit = I[i * INTS + IF.label];
      if (fit === C.label.none) continue;
      const text = chart.labels[k++];
      if (!which(i)) continue;
      const size = F[i * FLOATS + FF.label_font], r = F[i * FLOATS + FF.label_radius], angle = F[i * FLOATS + FF.label_angle];
      if (size !== font) { font = size; c.font = `${size}px sans-serif`; }
      c.fillStyle = (fit & C.label.light) || (c === octx && I[i * INTS + IF.highlight] === MATCH) ? '#ffffff' : '#1a1a1a';
      const reversed = (fit & C.label.reversed) !== 0, along = (fit & (C.label.along | C.label.across)) === C.label.along;
      painted.push({segment: i, text, font: size, color: c.fillStyle, along});
      if (chart.icicle) { c.fillText(text, F[i * FLOATS + FF.label_x], F[i * FLOATS + FF.label_y]); continue; }
      if (I[i * INTS + IF.kind] === KIND_CENTER) { c.setTransform(dpr, 0, 0, dpr, 0, 0); c.fillText(text, cx, cy); continue; }
      const x = cx + r * Math.sin(angle), y = cy - r * Math.cos(angle);
      if (!along) {
        placeGlyph(c, dpr, x, y, angle - Math.PI / 2 + (reversed ? Math.PI : 0));
        c.fillText(text, 0, 0);
        continue;
      }
      const chars = Array.from(text), widths = chars.map((ch) => glyphWidth(c, size, ch));
      const total = widths.reduce((a, b) => a + b, 0);
      // In pieces as wide as stay within half a pixel of the arc (a chord w wide strays
      // w^2 / 8r from it), each straight along the arc's tangent at its middle: a canvas call
      // costs a few microseconds whatever its text, and a glyph each made 3000 calls a chart.
      // Clockwise from the start above the center; counter-clockwise below it.
      const flat = Math.sqrt(4 * r);
      let at = -total / 2;
      for (let g = 0; g < chars.length;) {
        let w = widths[g], end = g + 1;
        while (end < chars.length && (w + widths[end]) <= flat) w += widths[end++];
        const a = angle + (reversed ? -1 : 1) * (at + w / 2) / r;
        placeGlyph(c, dpr, cx + r * Math.sin(a), cy - r * Math.cos(a), a + (reversed ? Math.PI : 0));
        c.fillText(end - g === chars.length ? text : chars.slice(g, end).join(''), 0, 0);
        at += w;
        g = end;
      }
    }
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    return painted;
  }
  // The canvas's transform for text at (x, y) turned clockwise by `rotation` radians.
  function placeGlyph(c, dpr, x, y, rotation) {
    const cos = Math.cos(rotation) * dpr, sin = Math.sin(rotation) * dpr;
    c.setTransform(cos, sin, -sin, cos, x * dpr, y * dpr);
  }
  // A value for a table column: as it is below a million, above to three digits with an SI
  // prefix (1.10 G: a column of the table on the right has room for seven characters).
  function fmt(x) {
    if (x === null || x === undefined) return '-';
    const a = Math.abs(x);
    if (x !== 0 && (a < 1e-3 || a >= 999.5e12)) return x.toExponential(2);
    if (a < 1e6) return String(Math.round(x * 1000) / 1000);
    let k = Math.floor(Math.log10(a) / 3), v = (x / 1000 ** k).toPrecision(3);
    if (Math.abs(Number(v)) >= 1000) v = (x / 1000 ** ++k).toPrecision(3);
    return `${v} ${' kMGT'[k]}`;
  }
  // A value in full, for the tooltip.
  function exact(x) {
    if (x === null || x === undefined) return '-';
    return x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential(3) : x.toLocaleString('en-US', {maximumFractionDigits: 3});
  }

  function escapeHtml(text) { return text.replace(/&/g, '&amp;').replace(/</g, '&lt;'); }
  // A frame's name for people (ccrc::display_name); its full name stays in titles and searches.
  function displayName(name) { return m.UTF8ToString(api.displayName(name)); }
  function flatTable() {
    const rows = JSON.parse(m.UTF8ToString(api.flat(60)));
    const picked = view.search.startsWith('=') ? view.search.slice(1) : null;
    let html = '';
    for (const [id, name, self, pct, rgb] of rows) {
      const esc = name.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      html += `<tr data-method="${id}" class="${name === picked ? 'picked' : ''}" title="${esc.replace(/"/g, '&quot;')}">` +
        `<td class="num">${pct.toFixed(2)} %</td><td><span class="swatch" style="background:${color(rgb, 0)}"></span>` +
        `${escapeHtml(displayName(name))}</td><td class="num">${fmt(self)}</td></tr>`;
    }
    ui.flat.innerHTML = html;
  }

  // The way to the center: the path chosen, or the trunk the first view left out.
  function crumbs() {
    const center = view.path || (chart.count ? m.UTF8ToString(api.path(chart.ints[0])) : '');
    const frames = center ? center.split(';') : [];
    let html = '<a data-path="">(top)</a>';
    for (let i = 0; i < frames.length; ++i) {
      const p = frames.slice(0, i + 1).join(';');
      html += ' › <a data-path="' + escapeHtml(p).replace(/"/g, '&quot;') + '" title="' + escapeHtml(frames[i]).replace(/"/g, '&quot;') +
        '">' + escapeHtml(displayName(frames[i])) + '</a>';
    }
    ui.crumbs.innerHTML = html;
  }

  function status() {
    const lines = chart.count ? `${chart.count} segments` : 'no profile';
    const compared = compareInfo();
    const caption = chart.count && charted() ? m.UTF8ToString(laid.caption) : '';
    ui.status.textContent = lines + (caption ? ' · ' + caption : '') + (searchInfo ? ' · ' + searchInfo : '') + (compared ? ' · ' + compared : '');
  }
  // What the comparison with a first run shows: the count of each class, or why it is off.
  function compareInfo() {
    const c = JSON.parse(m.UTF8ToString(api.compareInfo()));
    if (c.state === 'none') return '';
    if (c.state === 'off') return `compared with ${baselineName}: off (${c.why})`;
    const parts = Object.entries(c.counts).filter(([k, n]) => n > 0 && k !== 'unchanged').map(([k, n]) => `${n} ${k.replace('_', ', ')}`);
    return `compared with ${baselineName}: ` + (parts.length ? parts.join(', ') : 'no change');
  }

  // Runs the search the view asks for; returns false (and shows why) when it is malformed.
  function search() {
    // The query and the minimum (a share of the total, in percent) as `ccrc search` takes them.
    const min = view.min === '' ? '' : view.min + '%';
    const request = {text: view.search, min_total: min, part: C.part[view.part], ignore_case: 0};
    const found = withRecord(C.records.search_request, request, api.search);
    if (found < 0) {
      showError('search: ' + m.UTF8ToString(api.errorText()));
      searching = false;
      return;
    }
    if (ui.error.textContent.startsWith('search: ')) showError('');
    searching = found > 0;
  }

  // Lays out and draws the view (only highlights it again when options.layout is false: the
  // search changed, nothing else); `what` names the interaction for the timings. The table
  // follows in a task of its own: the flat profile of a large view is a walk over all of it,
  // and the chart should not wait for it.
  let tablePending = null;
  const tableMs = [];
  function render(what, options = {}) {
    const t0 = performance.now();
    if (options.search) search();
    ui.chartBox.style.display = charted() ? '' : 'none';
    ui.tables.style.display = charted() ? 'none' : 'flex';
    if (charted()) fitCanvas();
    if (!charted()) {
      // Laid out still, undrawn: the breadcrumbs, the table on the right and the search follow the view.
      layout();
      crumbs();
      const t1 = performance.now();
      showTable();
      const t2 = performance.now();
      searchInfo = searching ? matchInfo() : '';
      status();
      syncControls();
      timings.push({what, ms: performance.now() - t0, library_ms: t1 - t0, draw_ms: t2 - t1, segments: 0});
      if (options.table !== false && tablePending === null) tablePending = setTimeout(flushTable, 0);
      return;
    }
    // Laid out (or handed back as kept) unless only the search changed, then highlighted.
    const laidOut = options.layout !== false;
    if (laidOut) layout();
    if (chart.count) {
      laid = readRecord(C.records.layout_result, api.highlight());
      if (laid.count >= 0) viewSegments(laid);
    }
    const t1 = performance.now();
    drawChart();
    drawHighlight();
    const t2 = performance.now();
    searchInfo = searching ? matchInfo() : '';
    if (laidOut) crumbs();
    status();
    syncControls();
    timings.push({what, ms: performance.now() - t0, library_ms: t1 - t0, draw_ms: t2 - t1, segments: chart.count});
    if (options.table !== false && tablePending === null) tablePending = setTimeout(flushTable, 0);
  }
  // What the search found, as the last layout or highlight counted it.
  function matchInfo() { return `${laid.matches} contexts match, ${(100 * laid.match_share).toFixed(2)} % of the total`; }
  function flushTable() {
    if (tablePending === null) return;
    clearTimeout(tablePending);
    tablePending = null;
    const t0 = performance.now();
    flatTable();
    tableMs.push(performance.now() - t0);
  }

  function syncControls() {
    for (const b of ui.shows.querySelectorAll('button')) b.classList.toggle('on', b.getAttribute('data-show') === view.show);
    ui.depth.value = String(view.depth === C.depth.auto ? 0 : view.depth === C.depth.all ? DEPTH_ALL : view.depth);
    ui.depthValue.textContent = view.depth === C.depth.auto ? `auto (${chart.rings})` : view.depth === C.depth.all ? 'all' : String(view.depth);
    ui.sizing.value = view.sizing;
    ui.metric.value = String(view.metric);
    ui.tree.value = view.tree;
    ui.color.value = view.color;
    if (document.activeElement !== ui.search) ui.search.value = view.search;
    ui.part.value = view.part;
    if (document.activeElement !== ui.min) ui.min.value = view.min;
  }

  // ---- the tables: the call tree, the bottom-up tree and a function's callers and callees,
  // each computed by the module (tables.cpp) for the tree and metric shown. The page holds only
  // the rows on screen: ROW pixels each, over a spacer as tall as all of them.
  const ROW = 20, BUTTERFLY_ROWS = 200;
  let tableTop = 0;         // the table's scroll position, as its scroll events tell it
  // A share to a tenth of a percent; below 1 % (most rows of a large profile) to two digits,
  // down to a hundredth.
  function percentOf(x, total) {
    if (!(total > 0)) return '';
    const p = 100 * x / total;
    if (p === 0 || Math.abs(p) >= 1) return p.toFixed(1) + ' %';
    return Math.abs(p) < 0.01 ? '< 0.01 %' : p.toPrecision(2) + ' %';
  }
  function rowHtml(attrs, depth, state, display, full, self, total, whole, picked) {
    const twisty = state === 2 ? '▾' : state === 1 ? '▸' : '';
    return `<div class="trow${picked ? ' picked' : ''}" ${attrs} title="${escapeHtml(full).replace(/"/g, '&quot;')}">` +
      `<span class="tname" style="padding-left:${4 + 12 * Math.min(depth, 60)}px"><span class="twisty">${twisty}</span>${escapeHtml(display)}</span>` +
      `<span class="tnum">${fmt(self)}</span><span class="tshare">${percentOf(self, whole)}</span>` +
      `<span class="tnum">${fmt(total)}</span><span class="tshare">${percentOf(total, whole)}</span></div>`;
  }
  // Draws the table shown: after a change of view, on opening it, and as it scrolls.
  function showTable(reveal = true) {
    if (view.show === 'butterfly') return showButterfly(reveal);
    const kind = view.show === 'calltree' ? C.table.calltree : C.table.bottomup;
    ui.tableTitle.textContent = kind === C.table.calltree ? 'calling context (callees below)' : 'function (callers below)';
    let selected = -1;
    if (reveal && kind === C.table.calltree) {
      selected = view.path ? api.tableReveal(view.path) : -1;
      selectedNode = selected >= 0 ? JSON.parse(m.UTF8ToString(api.tableRows(kind, selected, 1))).rows[0][6] : -1;
    }
    if (reveal && kind === C.table.bottomup && view.fn) selected = api.tableFunction(api.method(view.fn));
    ui.tableSpacer.style.height = `${api.table(kind) * ROW}px`;
    if (selected >= 0) scrollToRow(selected);
    const [first, shown] = rowsOnScreen();
    const data = JSON.parse(m.UTF8ToString(api.tableRows(kind, first, shown)));
    let html = '';
    tableRowsShown = [];
    data.rows.forEach(([depth, state, display, full, self, total, id], k) => {
      const picked = kind === C.table.calltree ? id === selectedNode : depth === 0 && full === view.fn;
      tableRowsShown.push({row: first + k, id, full, state});
      html += rowHtml(`data-k="${k}"`, depth, state, display, full, self, total, data.total, picked);
    });
    ui.tableRows.style.top = `${first * ROW}px`;
    ui.tableRows.innerHTML = html;
  }
  // The first row on screen and how many fit (one more at either end, partly shown).
  function rowsOnScreen() { return [Math.floor(tableTop / ROW), Math.ceil(window.innerHeight / ROW) + 2]; }
  // Scrolls row `row` into the upper half of the table. The window's height bounds the table's,
  // and the scroll is set in the next frame: no layout is read or forced here (after a switch of
  // view the browser would lay the page out there and then, twice).
  function scrollToRow(row) {
    const box = window.innerHeight;
    if (row * ROW < tableTop || (row + 1) * ROW > tableTop + box / 2) {
      tableTop = Math.max(0, row * ROW - box / 4);
      requestAnimationFrame(() => { ui.tableScroll.scrollTop = tableTop; });
    }
  }
  function showButterfly(reveal) {
    ui.tableTitle.textContent = 'callers, the function, its callees';
    if (reveal) {
      const b = view.fn ? JSON.parse(m.UTF8ToString(api.butterfly(api.method(view.fn), BUTTERFLY_ROWS))) : null;
      butterflyLines = [];
      if (!b) {
        butterflyLines.push({section: 'Pick a function: in the bottom-up tree, the call tree, the table on the right, or search =NAME.'});
      } else {
        const list = (title, entries, count) => {
          butterflyLines.push({section: `${title} (${count})`});
          for (const [id, display, full, self, total] of entries)
            butterflyLines.push({id, display: id === 0 ? '(top level)' : display, full, self, total, depth: 1});
          if (count > entries.length) butterflyLines.push({section: `… ${count - entries.length} more`});
        };
        list('callers', b.callers, b.callers_count);
        const [id, display, full, self, total, contexts] = b.function;
        butterflyLines.push({section: `the function, in ${contexts} calling contexts`});
        butterflyLines.push({id, display, full, self, total, depth: 0, picked: true});
        scrollToRow(butterflyLines.length - 2);
        list('callees', b.callees, b.callees_count);
      }
      butterflyWhole = b ? b.total : 0;
      ui.tableSpacer.style.height = `${butterflyLines.length * ROW}px`;
    }
    const [first, shown] = rowsOnScreen();
    let html = '';
    tableRowsShown = [];
    for (const line of butterflyLines.slice(first, first + shown)) {
      if (line.section) { html += `<div class="tsection">${escapeHtml(line.section)}</div>`; continue; }
      tableRowsShown.push({id: line.id, full: line.full});
      html += rowHtml(`data-k="${tableRowsShown.length - 1}"`, line.depth, 0, line.display, line.full, line.self, line.total, butterflyWhole, line.picked);
    }
    ui.tableRows.style.top = `${first * ROW}px`;
    ui.tableRows.innerHTML = html;
  }
  // Picking a function (a bottom-up row, a caller or callee, a row of the table on the right)
  // selects it everywhere: the butterfly shows it, the chart highlights its contexts.
  function pickFunction(name) { go({fn: name, search: '=' + name, part: 'name'}, 'pick', false); }
  ui.tableScroll.addEventListener('scroll', () => {
    tableTop = ui.tableScroll.scrollTop;
    if (scrollPending) return;
    scrollPending = requestAnimationFrame(() => { scrollPending = 0; showTable(false); });
  });
  let scrollPending = 0;
  ui.tableRows.addEventListener('click', (e) => {
    const el = e.target.closest('.trow');
    if (!el || !el.hasAttribute('data-k')) return;
    const r = tableRowsShown[Number(el.getAttribute('data-k'))];
    if (view.show === 'butterfly') { if (r.id !== 0) pickFunction(r.full); return; }
    const kind = view.show === 'calltree' ? C.table.calltree : C.table.bottomup;
    if (e.target.classList.contains('twisty') && r.state) {
      const t0 = performance.now();
      api.tableToggle(kind, r.row);
      showTable(false);
      timings.push({what: 'toggle', ms: performance.now() - t0, library_ms: 0, draw_ms: 0, segments: 0});
      return;
    }
    if (kind === C.table.calltree) {
      const path = m.UTF8ToString(api.path(r.id)), name = path.slice(path.lastIndexOf(';') + 1);
      go({path, fn: name}, 'select', true);
    } else {
      pickFunction(r.full);
    }
  });
  ui.shows.addEventListener('click', (e) => {
    const show = e.target.getAttribute && e.target.getAttribute('data-show');
    if (show && show !== view.show) go({show}, 'show ' + show, false);
  });

  // ---- navigation: selecting pushes a history entry, everything else replaces the current one
  function go(change, what, push) {
    const searchChanged = 'search' in change || 'part' in change || 'min' in change || 'metric' in change || 'tree' in change;
    const onlySearch = Object.keys(change).every((k) => k === 'search' || k === 'part' || k === 'min');
    Object.assign(view, change);
    const url = fragmentOf(view);
    if (push) history.pushState({ccrc: true}, '', url); else history.replaceState(null, '', url);
    render(what, {search: searchChanged, layout: !onlySearch});
  }
  function select(segment) {
    // A chain's segment opens on its last context, the one whose callees branch.
    const node = chart.ints[segment * INTS + IF.last];
    go({path: m.UTF8ToString(api.path(node))}, 'select', true);
  }
  // Back through the history of selections; at its start (a shared link), up to the caller.
  function back() {
    if (history.state && history.state.ccrc) history.back();
    else if (view.path) go({path: view.path.split(';').slice(0, -1).join(';')}, 'back', false);
  }
  window.addEventListener('popstate', () => {
    view = viewOf(location.hash);
    render('back', {search: true});
  });

  // ---- sizing
  // The canvases as large as their box (which a table shown in its place leaves empty): measured
  // when the window's size changed, not at every switch back to the chart (a measure lays the
  // page out).
  let sizeStale = true;
  function fitCanvas() {
    if (!sizeStale) return;
    sizeStale = false;
    const box = ui.chartBox.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(16, box.width), h = Math.max(16, box.height);
    if (w === size.w && h === size.h) return;
    size = {w, h};
    for (const c of [panes.ring.canvas, panes.icicle.canvas, overlay]) {
      c.width = Math.round(size.w * dpr);
      c.height = Math.round(size.h * dpr);
    }
    panes.ring.drawn = panes.icicle.drawn = 0;
  }
  function resize() {
    sizeStale = true;
    if (charted()) fitCanvas();
    if (api && chart.count >= 0 && metrics.length) render('resize', {table: false});
  }
  window.addEventListener('resize', resize);

  // ---- pointer
  function pointer(e) {
    const box = ui.chartBox.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  }
  let hoverMs = [];
  // The tip's padding and borders, and the size of one character and one line of its font:
  // measured once, the tip being shown (its CSS width is at most TIP_CHARS characters).
  const TIP_CHARS = 60, TIP_INDENT = 12;
  let tipMetrics = null, tipSize = null;
  function tipBox() {
    if (tipMetrics) return tipMetrics;
    const size = (text) => {
      ui.tip.textContent = text;
      const r = ui.tip.getBoundingClientRect();
      return [r.width, r.height];
    };
    const text = ui.tip.textContent;
    const [w1, h1] = size('x'), [w11, h11] = size('x'.repeat(11) + '\nx'.repeat(10));
    ui.tip.textContent = text;
    const char = (w11 - w1) / 10, line = (h11 - h1) / 10;
    tipMetrics = {char, line, width: w1 - char, height: h1 - line};
    return tipMetrics;
  }
  ui.chartBox.addEventListener('mousemove', (e) => {
    if (!api) return;
    const t0 = performance.now();
    const [x, y] = pointer(e);
    const i = api.hit(x, y);
    if (i < 0) { ui.tip.style.display = 'none'; ui.chartBox.style.cursor = ''; hoverMs.push(performance.now() - t0); return; }
    const tip = JSON.parse(m.UTF8ToString(api.tooltip(i)));
    const tail = [];
    for (const r of tip.metrics) tail.push(`${r.name}: self ${exact(r.self)}, aggregated ${exact(r.aggregated)}`);
    tail.push(`${(100 * tip.share).toFixed(2)} % of the ${chart.icicle ? 'top bar' : 'center'}`);
    if (tip.contexts > 1) tail.push(`(and ${tip.contexts - 1} more callees, too thin to draw)`);
    if (tip.chain > 1) tail.push(`(its last ${tip.chain} frames, a run of single callees, drawn as one segment)`);
    if (tip.diff) {
      const pct = (x) => (100 * x).toFixed(2) + ' %';
      tail.push(`${tip.diff.status.replace('_', ', ')}: H ${tip.diff.height >= 0 ? '+' : ''}${pct(tip.diff.height)} ` +
        `(${pct(tip.diff.first)} of the first run, ${pct(tip.diff.second)} of this one)`);
    }
    ui.tip.style.display = 'block';
    // The stack as deep as the window shows it: its innermost frames, the outer ones counted
    // (a tip taller than the window would hide them anyway, and lay out lines nobody sees).
    // Indented by depth, up to TIP_INDENT levels, so that deep frames stay within its width.
    const box = tipBox();
    const rows = Math.max(tail.length + 2, Math.floor((window.innerHeight - 8 - box.height) / box.line));
    const stack = tip.stack.length ? tip.stack : ['(root)'];
    const first = stack.length + tail.length > rows ? stack.length - (rows - tail.length - 1) : 0;
    const lines = first ? [`… ${first} outer frames`] : [];
    for (let d = first; d < stack.length; ++d) lines.push(' '.repeat(2 * Math.min(d - first, TIP_INDENT)) + stack[d]);
    lines.push(...tail);
    ui.tip.textContent = lines.join('\n');
    // The tip's size from its lines (monospace, pre), not read back from the page: reading
    // offsetWidth would lay the page out again at every move.
    const width = box.width + box.char * Math.min(TIP_CHARS, Math.max(...lines.map((l) => l.length)));
    const height = box.height + box.line * lines.length;
    tipSize = {width, height};
    ui.tip.style.left = Math.min(e.clientX + 14, window.innerWidth - width - 4) + 'px';
    ui.tip.style.top = Math.max(0, Math.min(e.clientY + 14, window.innerHeight - height - 4)) + 'px';
    ui.chartBox.style.cursor = 'pointer';
    hoverMs.push(performance.now() - t0);
  });
  ui.chartBox.addEventListener('mouseleave', () => { ui.tip.style.display = 'none'; });
  ui.chartBox.addEventListener('click', (e) => {
    if (!api || !chart.count) return;
    const [x, y] = pointer(e);
    const i = api.hit(x, y);
    if (i < 0) return;
    if (chart.ints[i * INTS + IF.kind] === KIND_CENTER) back(); else select(i);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Backspace' && !(e.target instanceof HTMLInputElement) && !(e.target instanceof HTMLSelectElement)) {
      e.preventDefault();
      back();
    }
  });
  ui.crumbs.addEventListener('click', (e) => {
    const p = e.target.getAttribute && e.target.getAttribute('data-path');
    if (p !== null && p !== undefined && p !== view.path) go({path: p}, 'select', true);
  });
  ui.flat.addEventListener('click', (e) => {
    const row = e.target.closest('tr');
    if (!row) return;
    const name = row.getAttribute('title');  // the attribute's value, its entities decoded once, by the page
    if (view.search === '=' + name) go({search: '', fn: ''}, 'search', false); else pickFunction(name);
  });

  // ---- controls
  ui.depth.addEventListener('input', () => {
    const d = Number(ui.depth.value);
    go({depth: d === 0 ? C.depth.auto : d === DEPTH_ALL ? C.depth.all : d}, 'depth', false);
  });
  ui.sizing.addEventListener('change', () => go({sizing: ui.sizing.value}, 'sizing', false));
  ui.metric.addEventListener('change', () => go({metric: Number(ui.metric.value)}, 'metric', false));
  ui.tree.addEventListener('change', () => go({tree: ui.tree.value}, 'tree', false));
  ui.color.addEventListener('change', () => go({color: ui.color.value}, 'color', false));
  ui.part.addEventListener('change', () => go({part: ui.part.value}, 'search', false));
  ui.search.addEventListener('input', () => go({search: ui.search.value}, 'search', false));
  ui.min.addEventListener('input', () => go({min: ui.min.value}, 'search', false));

  // ---- opening
  function showError(text) {
    ui.error.textContent = text;
    ui.error.style.display = text ? 'block' : 'none';
  }
  // Loads a profile's bytes; on failure shows the reader's message and keeps the current one.
  function open(bytes, name) {
    const t0 = performance.now();
    const p = m._malloc(Math.max(1, bytes.length));
    m.HEAPU8.set(bytes, p);
    const failed = api.load(p, bytes.length);
    m._free(p);
    if (failed) {
      showError(`cannot open ${name}: ${m.UTF8ToString(api.errorText())}` + (metrics.length ? ' (the previous profile is kept)' : ''));
      return false;
    }
    showError('');
    adopt(freshState(JSON.parse(m.UTF8ToString(api.info()))));
    ui.metric.innerHTML = metrics.map((n, i) => `<option value="${i}">${n.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</option>`).join('');
    document.title = `${name} - ccrc viewer`;
    history.replaceState(null, '', fragmentOf(view));
    render('open', {search: true});
    timings.push({what: 'ready', ms: performance.now() - t0});
    return true;
  }
  // Loads a first run to compare the profile with (no bytes: the comparison ends).
  function openBaseline(bytes, name) {
    const p = m._malloc(Math.max(1, bytes.length));
    m.HEAPU8.set(bytes, p);
    const failed = api.loadBaseline(p, bytes.length);
    m._free(p);
    if (failed) {
      showError(`cannot open ${name}: ${m.UTF8ToString(api.errorText())}`);
      return false;
    }
    showError('');
    baselineName = name;
    ui.uncompare.style.display = bytes.length ? '' : 'none';
    if (chart.count) render('compare');
    return true;
  }
  ui.baseline.addEventListener('change', () => {
    if (!ui.baseline.files.length) return;
    const file = ui.baseline.files[0], reader = new FileReader();
    reader.onload = () => openBaseline(new Uint8Array(reader.result), file.name);
    reader.onerror = () => showError(`cannot read ${file.name}`);
    reader.readAsArrayBuffer(file);
  });
  ui.uncompare.addEventListener('click', () => { ui.baseline.value = ''; openBaseline(new Uint8Array(0), ''); });
  function openFile(file) {
    const reader = new FileReader();
    reader.onload = () => open(new Uint8Array(reader.result), file.name);
    reader.onerror = () => showError(`cannot read ${file.name}`);
    reader.readAsArrayBuffer(file);
  }
  ui.file.addEventListener('change', () => { if (ui.file.files.length) openFile(ui.file.files[0]); });
  const chartBox = ui.chartBox;
  chartBox.addEventListener('dragover', (e) => { e.preventDefault(); ui.drop.style.display = 'block'; });
  ui.drop.addEventListener('dragleave', () => { ui.drop.style.display = 'none'; });
  chartBox.addEventListener('drop', (e) => {
    e.preventDefault();
    ui.drop.style.display = 'none';
    if (e.dataTransfer.files.length) openFile(e.dataTransfer.files[0]);
  });

  // The hooks the browser test drives the page through (tests/viewer/).
  window.ccrcViewer = {
    open, openBaseline, viewOf, get view() { return view; }, get contract() { return C; }, timings, hoverMs: () => hoverMs, tipSize: () => tipSize, tableMs: () => tableMs, flushTable,
    resetTimings() { timings.length = 0; tableMs.length = 0; hoverMs = []; },
    // Segment i as the library laid it out: path (and its last context's: a chain's), the
    // contexts it stands for, kind, depth, highlight, the color it is filled with, its radii and
    // angles (or its box's edges), whether it is cut at the edge, and its middle point.
    segments() {
      const out = [];
      for (let i = 0; i < chart.count; ++i) {
        const F = chart.floats, I = chart.ints;
        const chain = {last: m.UTF8ToString(api.path(I[i * INTS + IF.last])), contexts: I[i * INTS + IF.contexts]};
        const r = (F[i * FLOATS + FF.r0] + F[i * FLOATS + FF.r1]) / 2, a = (F[i * FLOATS + FF.a0] + F[i * FLOATS + FF.a1]) / 2;
        const box = ui.chartBox.getBoundingClientRect();
        const kind = I[i * INTS + IF.kind];
        if (chart.icicle) {
          const x0 = F[i * FLOATS + FF.x0], x1 = F[i * FLOATS + FF.x1], y0 = F[i * FLOATS + FF.y0], y1 = F[i * FLOATS + FF.y1];
          out.push({path: m.UTF8ToString(api.path(I[i * INTS + IF.node])), ...chain, kind, depth: I[i * INTS + IF.depth], mark: I[i * INTS + IF.highlight],
            diff: I[i * INTS + IF.diff] - 1, height: F[i * FLOATS + FF.height], fill: fillStyle(colorKey(i, NORMAL)),
            x0, x1, y0, y1, edge: I[i * INTS + IF.edge] === 1, x: box.left + (x0 + x1) / 2, y: box.top + (y0 + y1) / 2});
          continue;
        }
        out.push({path: m.UTF8ToString(api.path(I[i * INTS + IF.node])), ...chain, kind, depth: I[i * INTS + IF.depth], mark: I[i * INTS + IF.highlight],
          diff: I[i * INTS + IF.diff] - 1, height: F[i * FLOATS + FF.height], fill: fillStyle(colorKey(i, NORMAL)),
          r0: F[i * FLOATS + FF.r0], r1: F[i * FLOATS + FF.r1], a0: F[i * FLOATS + FF.a0], a1: F[i * FLOATS + FF.a1], edge: I[i * INTS + IF.edge] === 1,
          x: box.left + (kind === KIND_CENTER ? chart.cx : chart.cx + r * Math.sin(a)),
          y: box.top + (kind === KIND_CENTER ? chart.cy : chart.cy - r * Math.cos(a)),
          // Its end side's middle (a sector's: where the gap to its next sibling is).
          endX: box.left + chart.cx + r * Math.sin(F[i * FLOATS + FF.a1]), endY: box.top + chart.cy - r * Math.cos(F[i * FLOATS + FF.a1])});
      }
      return out;
    },
    status: () => ui.status.textContent, error: () => ui.error.textContent, table: () => ui.flat.textContent,
    // The labels as painted (segment, text, font size, color) and the chart's ring radii.
    labels: () => paneShown().labels.slice(), radii: () => {
      const r = new Set();
      for (let i = 0; i < chart.count; ++i) { r.add(chart.floats[i * FLOATS + FF.r0]); r.add(chart.floats[i * FLOATS + FF.r1]); }
      return [...r].sort((a, b) => a - b);
    },
    displayName: (name) => displayName(name),
    // What segment i's tooltip shows, as the module hands it out (ccrc_tooltip).
    tooltip: (i) => JSON.parse(m.UTF8ToString(api.tooltip(i))),
    // The table's colors, top row first.
    swatches: () => [...ui.flat.querySelectorAll('.swatch')].map((e) => e.style.background),
  };

  ccrcModule().then((module) => {
    m = module;
    C = JSON.parse(m.UTF8ToString(m._ccrc_contract()));
    FLOATS = C.floats.length;
    INTS = C.ints.length;
    FF = Object.fromEntries(C.floats.map((name, k) => [name, k]));
    IF = Object.fromEntries(C.ints.map((name, k) => [name, k]));
    [KIND_CENTER, KIND_LINE, MATCH] = [C.kind.center, C.kind.line, C.highlight.match];
    api = {
      load: m._ccrc_load, errorText: m._ccrc_error_text, info: m._ccrc_profile_info,
      layout: m._ccrc_layout, displayName: m.cwrap('ccrc_display_name', 'number', ['string']),
      table: m._ccrc_table, tableRows: m._ccrc_table_rows, tableToggle: m._ccrc_table_toggle,
      tableReveal: m.cwrap('ccrc_table_reveal', 'number', ['string']), tableFunction: m._ccrc_table_function,
      method: m.cwrap('ccrc_method', 'number', ['string']), butterfly: m._ccrc_butterfly,
      highlight: m._ccrc_highlight, path: m._ccrc_path, hit: m._ccrc_hit, tooltip: m._ccrc_tooltip, flat: m._ccrc_flat,
      search: m._ccrc_search, loadBaseline: m._ccrc_load_baseline, compareInfo: m._ccrc_compare_info,
    };
    resize();
    // What `ccrc view` embedded: the profile, and perhaps the first run it is compared with.
    const embedded = (id) => {
      const raw = atob($(id).textContent.trim()), bytes = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; ++i) bytes[i] = raw.charCodeAt(i);
      return bytes;
    };
    if ($('ccrc-baseline').textContent.trim()) openBaseline(embedded('ccrc-baseline'), $('ccrc-baseline').getAttribute('data-name') || 'first run');
    if ($('ccrc-profile').textContent.trim()) {
      open(embedded('ccrc-profile'), $('ccrc-profile').getAttribute('data-name') || 'profile');
    } else {
      ui.status.textContent = 'open a profile: the file button, or drop a file on the page';
    }
    window.ccrcViewer.ready = true;
  });
})();
