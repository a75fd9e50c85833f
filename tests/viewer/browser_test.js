// The viewer in a real browser: drives headless chromium over the DevTools protocol on a pipe
// (--remote-debugging-pipe: no npm package, only node and chromium), runs selftest.js in the
// page and checks what it reports. Fails on a wrong value; prints the timings.
//
//   node browser_test.js CHROMIUM PAGE_URL OUT.json
//
// With CCRC_SCREENSHOT=FILE.png it only waits for the page to show its profile and saves a
// screenshot of the viewport (docs/images/regenerate.sh uses it for the README's); the
// viewport is 1440x900 CSS pixels, or CCRC_VIEWPORT=WxH. CCRC_PAGE_SCRIPT=FILE.js runs that
// script in the page instead of selftest.js (benchmarks/speedscope/ times another viewer so),
// and CCRC_CHROMIUM_FLAGS adds flags to chromium's.
'use strict';
const {spawn} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [chromium, url, out] = process.argv.slice(2);
if (!out) {
  console.error('usage: node browser_test.js CHROMIUM PAGE_URL OUT.json');
  process.exit(2);
}
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccrc-viewer-test-'));
const browser = spawn(chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', '--window-size=1440,900',
  '--allow-file-access-from-files', '--no-first-run', '--no-default-browser-check', '--disable-extensions',
  `--user-data-dir=${profileDir}`, ...(process.env.CCRC_CHROMIUM_FLAGS || '').split(' ').filter(Boolean), 'about:blank',
], {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']});
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });

let nextId = 1;
let loaded = null;
const waiting = new Map();
let buffer = '';
browser.stdio[4].on('data', (chunk) => {
  buffer += chunk.toString('utf8');
  for (let end; (end = buffer.indexOf('\0')) >= 0;) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method === 'Page.loadEventFired' && loaded) loaded();
    const w = waiting.get(message.id);
    if (w) {
      waiting.delete(message.id);
      if (message.error) w.reject(new Error(JSON.stringify(message.error))); else w.resolve(message.result);
    }
  }
});
function send(method, params = {}, sessionId = undefined) {
  const id = nextId++;
  browser.stdio[3].write(JSON.stringify({id, method, params, sessionId}) + '\0');
  return new Promise((resolve, reject) => waiting.set(id, {resolve, reject}));
}
function finish(code, message) {
  if (message) console.log(message);
  browser.on('exit', () => {
    try { fs.rmSync(profileDir, {recursive: true, force: true}); } catch (e) { /* a temporary directory */ }
    process.exit(code);
  });
  browser.kill('SIGKILL');
}
const deadline = setTimeout(() => finish(1, 'FAIL: the browser test took more than 240 s\n' + stderr.slice(-2000)), 240000);

(async () => {
  const {targetInfos} = await send('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page');
  const {sessionId} = await send('Target.attachToTarget', {targetId: page.targetId, flatten: true});
  await send('Page.enable', {}, sessionId);
  // The page's viewport exactly 1440 x 900 CSS pixels (the window's size includes no chrome
  // in headless mode, but the default viewport is smaller).
  const [width, height] = (process.env.CCRC_VIEWPORT || '1440x900').split('x').map(Number);
  await send('Emulation.setDeviceMetricsOverride', {width, height, deviceScaleFactor: 1, mobile: false}, sessionId);
  const load = new Promise((resolve) => { loaded = resolve; });
  await send('Page.navigate', {url}, sessionId);
  await load;
  const screenshot = process.env.CCRC_SCREENSHOT;
  const script = screenshot
    ? `(async () => { while (!(window.ccrcViewer && window.ccrcViewer.ready)) await new Promise((r) => setTimeout(r, 20));
         await new Promise((r) => setTimeout(r, 500)); return {failures: [], log: []}; })()`
    : fs.readFileSync(process.env.CCRC_PAGE_SCRIPT || path.join(__dirname, 'selftest.js'), 'utf8');
  const result = await send('Runtime.evaluate', {expression: script, awaitPromise: true, returnByValue: true}, sessionId);
  if (result.exceptionDetails) return finish(1, 'FAIL: ' + JSON.stringify(result.exceptionDetails).slice(0, 2000));
  const report = result.result.value;
  if (screenshot) {
    const {data} = await send('Page.captureScreenshot', {format: 'png'}, sessionId);
    fs.writeFileSync(screenshot, Buffer.from(data, 'base64'));
  }
  fs.writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  clearTimeout(deadline);
  for (const line of report.log) console.log(line);
  if (report.failures.length) return finish(1, 'FAIL:\n  ' + report.failures.join('\n  '));
  return finish(0, 'OK: every check passed');
})().catch((e) => finish(1, 'FAIL: ' + e.stack + '\n' + stderr.slice(-2000)));
