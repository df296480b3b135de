// Every row of tests/data/bad_inputs.json through the page's JS API (the CLI side is
// tests/catalog/bad_input_test.cpp): TrainSizer.estimate / TrainSizer.plan must return
// {error: {field: <the row's field>, message}} without throwing, and afterwards the page
// must still answer a good scenario and draw its canvas, with no WASM abort
// ("Aborted", RuntimeError) or other error in the console.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { serveDirectory } from './static_server.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = process.env.TRAINSIZER_SITE || path.join(repoRoot, 'build/web/site');
const rows = JSON.parse(readFileSync(path.join(repoRoot, 'tests/data/bad_inputs.json'), 'utf8')).rows;

// The same flags as page.test.mjs: software WebGL, no background traffic.
const chromiumArgs = [
  '--no-sandbox', '--disable-gpu-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--disable-quic', '--disable-default-apps',
];

let browser;
let server;

before(async () => {
  server = await serveDirectory(siteDir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs, headless: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Runs in the page: builds a row's text from its generator (bytes become Latin-1
// characters, as a JS string cannot hold raw bytes) and calls the API, reporting a throw
// instead of letting it escape.
function callInPage([command, input]) {
  const generate = (x) => {
    if (typeof x === 'string') return x;
    if ('repeat' in x) return x.repeat.repeat(x.times);
    if ('nest' in x) return '['.repeat(x.nest);
    if ('bytes_hex' in x) return x.bytes_hex.match(/../g).map((h) => String.fromCharCode(parseInt(h, 16))).join('');
    return x.concat.map(generate).join('');
  };
  const started = performance.now();
  try {
    const answer = window.TrainSizer[command](generate(input));
    return { answer, ms: performance.now() - started };
  } catch (e) {
    return { thrown: `${e && e.name}: ${e && e.message}`, ms: performance.now() - started };
  }
}

async function distinctColours(page) {
  const png = await page.screenshot();
  return page.evaluate(async (b64) => {
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
    return seen.size;
  }, png.toString('base64'));
}

test('every bad input comes back as an error naming its field, and the page survives', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const problems = [];
  const page = await context.newPage();
  page.on('console', (msg) => {
    const text = msg.text();
    // The browser asks for /favicon.ico on its own; the site has none.
    if (/favicon\.ico$/.test(msg.location().url || '')) return;
    if (msg.type() === 'error' || /Aborted|RuntimeError/.test(text)) problems.push(`console ${msg.type()}: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('crash', () => problems.push('page crashed'));
  await page.goto(server.url + '/');
  await page.waitForFunction(() => window.TrainSizer && window.TrainSizer.isReady, null, { timeout: 60000 });

  const wrong = [];
  let sent = 0;
  for (const row of rows) {
    if (row.cli_only_reason) continue;
    for (const command of row.commands || ['estimate', 'plan']) {
      const r = await page.evaluate(callInPage, [command, row.input]);
      ++sent;
      const error = r.answer && r.answer.error;
      const where = `${row.name} (${command})`;
      if (r.thrown) wrong.push(`${where}: threw ${r.thrown}`);
      else if (!error) wrong.push(`${where}: no error, got ${JSON.stringify(r.answer).slice(0, 200)}`);
      else if (error.field !== row.field) wrong.push(`${where}: field ${error.field}, want ${row.field}: ${error.message}`);
      else if (!error.message) wrong.push(`${where}: empty message`);
      else if (row.message_contains && !error.message.includes(row.message_contains)) {
        wrong.push(`${where}: message '${error.message}' lacks '${row.message_contains}'`);
      }
      if (r.ms > 20000) wrong.push(`${where}: took ${Math.round(r.ms)} ms`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(sent >= 90, `only ${sent} calls`);

  // Still alive: a good estimate and plan answer, and the canvas keeps drawing.
  const good = await page.evaluate(() => [
    window.TrainSizer.estimate({ model: 'llama-3-8b', gpus: 8, zero: 3 }),
    window.TrainSizer.plan({ model: 'llama-3-8b', method: 'lora', tokens: 1e8, max_gpus: 8 }),
  ]);
  assert.equal(good[0].params.total, 8030261248);
  assert.ok(good[1].picks.length > 0, JSON.stringify(good[1]).slice(0, 300));
  await page.waitForTimeout(300);
  assert.ok(await distinctColours(page) > 50, 'canvas looks blank after the bad inputs');
  assert.deepEqual(problems, []);
  await context.close();
});
