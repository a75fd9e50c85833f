// Records a Chrome DevTools performance trace of devtools_page.html (headless chromium, puppeteer-core).
const puppeteer = require('puppeteer-core');
const path = require('path');
(async () => {
  const browser = await puppeteer.launch({executablePath: '/usr/bin/chromium', args: ['--no-sandbox'], headless: true});
  const page = await browser.newPage();
  await page.tracing.start({path: process.argv[2], categories: ['devtools.timeline', 'v8.execute',
    'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler']});
  await page.goto('file://' + path.resolve(__dirname, 'devtools_page.html'));
  await page.tracing.stop();
  await browser.close();
})();
