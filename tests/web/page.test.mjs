// Browser tests of the built page in Debian's headless Chromium (SwiftShader WebGL):
// the served site on loopback and the offline single file from file:// with the network
// blocked. Fails on any console error, page error or request to another host.
// Screenshots land in build/web/screenshots/ for people to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { useBrowser, openPage, finish, launchChromium, distinctColours, pngStats, clickAnchor, typeIntoAnchor,
  retryGesture, repoRoot, siteDir, shotDir } from './harness.mjs';

const env = useBrowser();
const home = () => env.server.url + '/';

test('served page renders the UI and answers through window.TrainSizer', async () => {
  const opened = await openPage(env.browser, home());
  const { page } = opened;
  const png = await page.screenshot({ path: path.join(shotDir, 'page-1280x800.png') });
  assert.ok(await distinctColours(page, png) > 50, 'canvas looks blank');

  // Llama-3-8B has 8,030,261,248 parameters (Hugging Face safetensors count); ZeRO-3 over
  // 8 GPUs leaves 16 B × 8.03e9 / 8 = 14.96 GiB of model states per GPU.
  const r = await page.evaluate(() =>
    window.TrainSizer.estimate({ model: 'llama-3-8b', method: 'full', gpus: 8, zero: 3 }));
  assert.equal(r.params.total, 8030261248);
  const states = r.memory.weights_gib + r.memory.gradients_gib + r.memory.optimizer_gib;
  assert.ok(Math.abs(states - 8030261248 * 16 / 8 / 2 ** 30) < 0.001, `states ${states}`);

  const info = await page.evaluate(() => ({ v: window.TrainSizer.version(), cat: window.TrainSizer.catalog() }));
  assert.match(info.v, /^\d+\.\d+\.\d+$/);
  assert.ok(info.cat.gpus.gpus.length >= 7);
  await finish(opened);
});

test('bad input returns the error JSON and the page keeps running', async () => {
  const opened = await openPage(env.browser, home());
  const { page } = opened;
  const results = await page.evaluate(() => [
    window.TrainSizer.estimate({ model: 'llama-3-8b', tp: 3 }),
    window.TrainSizer.estimate('{"model": '),
    window.TrainSizer.estimate({ model: 'llama-3-8b', seq_len: -5 }),
    window.TrainSizer.estimate({ model: 'gpt-9' }),
    window.TrainSizer.estimate({ model: { params_b: 1e12 } }),
    window.TrainSizer.estimate(42),
  ]);
  assert.deepEqual(results.map((r) => r.error && r.error.field),
    ['tp', 'scenario', 'seq_len', 'model', 'model.params_b', 'scenario']);
  const ok = await page.evaluate(() => window.TrainSizer.estimate({ model: 'qwen2.5-7b' }));
  assert.ok(ok.memory.per_gpu_gib > 0);
  await finish(opened);
});

test('high-DPI and narrow windows render sharp and fill the window', async () => {
  for (const [w, h, s] of [[1280, 800, 2], [420, 860, 2]]) {
    const opened = await openPage(env.browser, home(), { width: w, height: h, scale: s });
    const { page } = opened;
    const backing = await page.evaluate(() => [document.getElementById('canvas').width, window.innerWidth]);
    assert.equal(backing[0], backing[1] * s, 'canvas backing store follows devicePixelRatio');
    const png = await page.screenshot({ path: path.join(shotDir, `page-${w}x${h}@${s}x.png`) });
    assert.ok(await distinctColours(page, png) > 50);
    await finish(opened);
  }
});

test('offline single file works from file:// with the network blocked', async () => {
  const url = pathToFileURL(path.join(siteDir, 'trainsizer.html')).href;
  const opened = await openPage(env.browser, url);
  const { page, requests } = opened;
  const png = await page.screenshot({ path: path.join(shotDir, 'offline-file.png') });
  assert.ok(await distinctColours(page, png) > 50);
  const r = await page.evaluate(() => window.TrainSizer.estimate({ model: 'llama-3-70b', gpus: 1 }));
  assert.equal(r.memory.fits, false);  // 70B full fine-tune never fits one GPU
  assert.deepEqual(requests.filter((u) => !u.startsWith('file:')), []);
  await finish(opened);
});

test('without WebGL2 the page says so in words instead of failing silently', async () => {
  const noGl = await launchChromium(['--disable-3d-apis', '--disable-webgl']);
  try {
    const page = await noGl.newPage();
    await page.goto(home());
    await page.waitForFunction(() => document.getElementById('status').className === 'error', null,
      { timeout: 30000 });
    const text = await page.textContent('#status');
    assert.match(text, /WebGL2/);
    await page.screenshot({ path: path.join(shotDir, 'no-webgl.png') });
  } finally {
    await noGl.close();
  }
});

// The page's WASM engine and the native CLI print byte-identical JSON for the same input
// (estimate and plan), so results do not depend on where they were computed.
test('WASM and native builds give byte-identical estimates and plans', async () => {
  const cli = path.join(repoRoot, 'build/native/trainsizer');
  const { execFileSync } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  if (!existsSync(cli)) throw new Error(`native CLI missing: ${cli} (scripts/test.sh builds it first)`);
  const opened = await openPage(env.browser, home());
  const { page } = opened;
  const cases = [
    ['estimate', { model: 'mixtral-8x7b', method: 'lora', gpus: 8, zero: 3, tokens: 5e8 }],
    ['estimate', { model: 'llama-3-70b', gpus: 64, tp: 8, pp: 2, zero: 1, tokens: 1e10, network: 'roce' }],
    ['plan', { model: 'llama-3-70b', method: 'full', tokens: 2e9, deadline_days: 7, budget: 40000 }],
    ['plan', { model: 'qwen2.5-7b', method: 'qlora', tokens: 1e8, purchase: 'own', currency: 'CNY', region: 'cn' }],
  ];
  for (const [command, scenario] of cases) {
    const text = JSON.stringify(scenario);
    const fromWasm = await page.evaluate(([c, t]) => (c === 'plan' ? window.TrainSizer.planJson(t)
      : window.TrainSizer.estimateJson(t)), [command, text]);
    const fromCli = execFileSync(cli, [command, '-'], { input: text }).toString().trimEnd();
    assert.equal(fromWasm, fromCli, `${command} ${text}`);
  }
  await finish(opened);
});

// A user's catalog overlay on the page: a negotiated price becomes a plan option; a broken
// overlay is refused with the entry and field, and the catalog in force stays.
test('catalog overlay through the JS API changes plans and survives bad input', async () => {
  const opened = await openPage(env.browser, home());
  const { page } = opened;
  const result = await page.evaluate(() => {
    const deal = { offers: [{ id: 'our-h100-deal', provider: 'acme', provider_name: 'Acme', instance: '8xH100',
      gpu: 'h100-sxm-80gb', gpus: 8, billing: 'instance', currency: 'USD', region: 'us', on_demand_per_hour: 1,
      spot_per_hour: null, reserved_1yr_per_hour: null, reserved_3yr_per_hour: null, price_date: '2026-11',
      confidence: 'quote', source: 'our negotiated quote' }] };
    const applied = window.TrainSizer.setCatalogOverlay(deal);
    const plan = window.TrainSizer.plan({ model: 'llama-3-8b', tokens: 1e9, purchase: 'cloud', max_gpus: 8,
      allowed_gpus: ['h100-sxm-80gb'] });
    const broken = window.TrainSizer.setCatalogOverlay({ offers: [{ id: 'x' }] });
    const after = window.TrainSizer.plan({ model: 'llama-3-8b', tokens: 1e9, purchase: 'cloud', max_gpus: 8,
      allowed_gpus: ['h100-sxm-80gb'] });
    const removed = window.TrainSizer.setCatalogOverlay('');
    return { applied, picks: plan.picks.map((p) => p.procurement_id), broken, after: after.picks.length, removed };
  });
  assert.equal(result.applied.ok, true);
  assert.ok(result.picks.includes('our-h100-deal'), JSON.stringify(result.picks));
  assert.equal(result.broken.error.field, 'overlay: offers[0] (x): provider');
  assert.ok(result.after > 0);
  assert.equal(result.removed.ok, true);
  await page.waitForTimeout(300);  // a few frames with the swapped catalog
  await finish(opened);
});

test('the theme follows the browser preference: dark and light', async () => {
  for (const scheme of ['dark', 'light']) {
    const opened = await openPage(env.browser, home(), { colorScheme: scheme });
    const { page } = opened;
    const png = await page.screenshot({ path: path.join(shotDir, `page-${scheme}.png`) });
    const bg = (await pngStats(page, png, 4, 4)).brightness;
    if (scheme === 'dark') assert.ok(bg < 60, `dark background ${bg}`);
    else assert.ok(bg > 200, `light background ${bg}`);
    assert.ok(await distinctColours(page, png) > 50);
    await finish(opened);
  }
});

// A person's clicks and keys: open the Examples menu and choose the 30B example, then type
// a budget; the page's state (TrainSizer.current()) follows each step. Controls are found
// where the page last drew them (current().anchors, CSS pixels), not at fixed coordinates.
test('the page responds to mouse and keyboard like a person uses it', async () => {
  const opened = await openPage(env.browser, home());
  const { page } = opened;
  await retryGesture(page, async () => {
    // The "Examples:" menu under the header, unless a previous attempt left it open.
    const open = await page.evaluate(() => Boolean(window.TrainSizer.current().anchors['example:seed-30b-full']));
    if (!open) await clickAnchor(page, 'examples');
    await clickAnchor(page, 'example:seed-30b-full');  // drawn once the menu is open
  }, () => window.TrainSizer.current().example === 'seed-30b-full');
  const chosen = await page.evaluate(() => window.TrainSizer.current());
  assert.equal(chosen.result.claim_check.verdict, 'impossible');
  assert.equal(chosen.result.memory.fits, false);
  await page.screenshot({ path: path.join(shotDir, 'example-30b.png') });

  // The Budget field (Goal, top of the inputs): select its text, type a value, press Enter.
  assert.equal(chosen.goal.budget, 0);
  await retryGesture(page, () => typeIntoAnchor(page, 'budget', '5000'),
    () => window.TrainSizer.current().goal.budget === 5000);

  // One wheel notch down over the inputs (Chromium: deltaY 100 px) scrolls them up by a
  // few lines, and one notch up brings them back: not a jump to the end, not reversed.
  const fieldY = async () => page.evaluate(() => window.TrainSizer.current().anchors['field:seq_len'][1]);
  const top = await fieldY();
  const [bx, by] = await page.evaluate(() => window.TrainSizer.current().anchors.budget);
  await page.mouse.move(bx, by);
  await page.mouse.wheel(0, 100);
  await page.waitForFunction((y) => window.TrainSizer.current().anchors['field:seq_len'][1] < y, top, { timeout: 4000 });
  await page.waitForTimeout(300);
  const scrolled = top - await fieldY();
  assert.ok(scrolled >= 30 && scrolled <= 200, `one notch scrolls a few lines (moved ${scrolled} px)`);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction((y) => window.TrainSizer.current().anchors['field:seq_len'][1] === y, top, { timeout: 4000 });
  await finish(opened);
});

// A refused value typed into a field: the message appears right under that field, the
// figures on the right stay those of the last valid inputs, and a valid value clears it.
test('a bad value typed into a field is explained under it and the last good result stays', async () => {
  const opened = await openPage(env.browser, home(), { width: 1280, height: 1700 });
  const { page } = opened;
  const before = await page.evaluate(() => window.TrainSizer.current().result.memory.per_gpu_gib);
  // Tensor parallelism of 3 cannot split Llama-3-8B's 32 attention heads.
  await retryGesture(page, () => typeIntoAnchor(page, 'field:tp', '3'),
    () => window.TrainSizer.current().error?.field === 'tp');
  await page.waitForFunction(() => window.TrainSizer.current().anchors['error:tp'], null, { timeout: 4000 });
  const state = await page.evaluate(() => window.TrainSizer.current());
  assert.equal(state.error.field, 'tp');
  const [, fieldY, , fieldH] = state.anchors['field:tp'];
  const [, errorY] = state.anchors['error:tp'];
  assert.ok(errorY >= fieldY + fieldH - 1 && errorY <= fieldY + fieldH + 30,
    `the message sits right under the field (field at ${fieldY}+${fieldH}, message at ${errorY})`);
  assert.equal(state.result.memory.per_gpu_gib, before, 'the last good result stays on screen');
  await page.screenshot({ path: path.join(shotDir, 'field-error.png'), clip: { x: 0, y: 0, width: 1280, height: 1700 } });

  await retryGesture(page, () => typeIntoAnchor(page, 'field:tp', '2'), () => !window.TrainSizer.current().error);
  assert.equal(await page.evaluate(() => window.TrainSizer.current().document.tp), 2);

  // The goal is checked by the planner: a negative deadline is explained under its field too.
  await retryGesture(page, () => typeIntoAnchor(page, 'field:deadline_days', '-1'),
    () => window.TrainSizer.current().anchors['error:deadline_days']);
  const goal = await page.evaluate(() => window.TrainSizer.current().anchors);
  assert.ok(goal['error:deadline_days'][1] >= goal['field:deadline_days'][1] + goal['field:deadline_days'][3] - 1,
    'the deadline message sits under the deadline field');
  await retryGesture(page, () => typeIntoAnchor(page, 'field:deadline_days', '7'),
    () => !window.TrainSizer.current().anchors['error:deadline_days'] && window.TrainSizer.current().goal.deadline_days === 7);
  await finish(opened);
});
