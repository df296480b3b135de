// What every browser test and the budget script share: where the built site is, how
// Debian's headless Chromium is started, and a page that records every problem (console
// and page errors, WASM aborts, Content-Security-Policy violations, and each request,
// blocking any that leaves the page's own origin).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { serveDirectory } from './static_server.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const siteDir = process.env.TRAINSIZER_SITE || path.join(repoRoot, 'build/web/site');
export const shotDir = path.join(repoRoot, 'build/web/screenshots');

// Software WebGL (SwiftShader), and none of Chromium's own background traffic to Google's
// hosts, which would otherwise show up as foreign requests.
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--disable-quic', '--disable-default-apps',
];

export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: [...chromiumArgs, ...extraArgs], headless: true });
}

// For node:test files: one static server over the site and one browser for the whole file.
// The returned object's `browser` and `server` are set once the `before` hook has run.
export function useBrowser() {
  const env = { browser: null, server: null };
  before(async () => {
    mkdirSync(shotDir, { recursive: true });
    env.server = await serveDirectory(siteDir);
    env.browser = await launchChromium();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

// The origin a page may load from: its own server, or file:// for the offline copy.
function ownOrigin(url) {
  const u = new URL(url);
  return u.protocol === 'file:' ? 'file:' : u.origin + '/';
}

// Opens `url` in a fresh context and waits until window.TrainSizer.isReady, or throws with
// the page's own start-up error (pre.js shows it in #status.error). `loadMs` is the time
// from navigation to ready on Node's clock.
// `initScript` (a function or script text) runs in the page before its own scripts.
export async function openPage(browser, url, { width = 1280, height = 800, scale = 1, locale = 'en-US',
  colorScheme = 'light', timeoutMs = 60000, initScript = null } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: scale, locale,
    colorScheme });
  const problems = [];
  const requests = [];
  const origin = ownOrigin(url);
  await context.route('**/*', (route) => {
    const u = route.request().url();
    requests.push(u);
    if (u.startsWith(origin)) return route.continue();
    problems.push(`blocked request to ${u}`);
    return route.abort();
  });
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation',
      (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.on('console', (msg) => {
    // An aborted WASM runtime may print as a warning; it is a failure all the same.
    if (msg.type() === 'error' || /Aborted|RuntimeError/.test(msg.text())) {
      problems.push(`console ${msg.type()}: ${msg.text()}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('crash', () => problems.push('page crashed'));
  const start = performance.now();
  await page.goto(url);
  await page.waitForFunction(() => (window.TrainSizer && window.TrainSizer.isReady) ||
    document.querySelector('#status.error'), null, { timeout: timeoutMs, polling: 5 });
  const loadMs = performance.now() - start;
  const fatal = await page.evaluate(() => document.querySelector('#status.error')?.textContent ?? null);
  if (fatal) throw new Error(`the page did not start: ${fatal} (${problems.join('; ')})`);
  // The planner runs over a few frames after start; screenshots and checks want its answer.
  await page.waitForFunction(() => !window.TrainSizer.current().planning, null, { timeout: timeoutMs });
  return { context, page, problems, requests, loadMs };
}

// Asserts that an opened page saw no problem and no CSP violation, then closes it.
export async function finish({ context, page, problems }) {
  const csp = await page.evaluate(() => window.__cspViolations);
  assert.deepEqual(csp, [], 'Content-Security-Policy violations');
  assert.deepEqual(problems, []);
  await context.close();
}

// Reads a PNG screenshot back through a 2D canvas in the page: the number of distinct
// colours (a blank or failed WebGL canvas has one or two, the real UI hundreds) and the
// brightness (0-255) of the pixel at (x, y).
export async function pngStats(page, png, x = 0, y = 0) {
  return page.evaluate(async ([b64, px, py]) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 16) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    const at = (py * c.width + px) * 4;
    return { colours: seen.size, brightness: (data[at] + data[at + 1] + data[at + 2]) / 3 };
  }, [png.toString('base64'), x, y]);
}

// Distinct colours of a screenshot (taken now when none is given).
export async function distinctColours(page, png) {
  return (await pngStats(page, png ?? await page.screenshot())).colours;
}

// Clicks a control where the page last drew it (TrainSizer.current().anchors, CSS pixels),
// `fx` of the way across it (a text box with -/+ buttons is clicked at 0.25).
export async function clickAnchor(page, name, fx = 0.5) {
  await page.waitForFunction((n) => window.TrainSizer.current().anchors[n], name, { timeout: 4000 });
  const [x, y, w, h] = await page.evaluate((n) => window.TrainSizer.current().anchors[n], name);
  await page.mouse.click(x + w * fx, y + h / 2);
}

// Replaces the text of the box drawn as `name` with `text` and presses Enter.
export async function typeIntoAnchor(page, name, text) {
  await clickAnchor(page, name, 0.25);
  await page.waitForTimeout(200);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

// A slow software-rendered frame can swallow a click or keys, so a gesture is repeated
// (up to 4 times) until `done` (run in the page) shows it took effect.
export async function retryGesture(page, action, done) {
  for (let attempt = 0; attempt < 4; ++attempt) {
    try {
      await action();
      await page.waitForFunction(done, null, { timeout: 4000 });
      return;
    } catch { /* try the gesture again */ }
  }
  throw new Error('the page did not respond to the gesture');
}

// The text of a frame drawn with every section open (TrainSizer._drawnText, ImGui's text
// log), once the page has nothing left to compute.
export async function drawnText(page) {
  await page.evaluate(() => window.TrainSizer._drawnText(true));
  const start = await page.evaluate(() => window.Module.tsFrames);
  await page.waitForFunction((f) => window.Module.tsFrames >= f + 2 && !window.Module.tsBusy, start,
    { timeout: 60000 });
  return page.evaluate(() => window.TrainSizer._drawnText(false));
}
