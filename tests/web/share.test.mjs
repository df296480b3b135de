// Browser tests of the three ways the page is used besides a plain visit: a shared link
// (every input in the #fragment), an embed in a blog post (?embed=1, 400 px wide), and
// 简体中文. Also the strict Content-Security-Policy and the export/launch-config API.
// Screenshots land in build/web/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { useBrowser, openPage as open, finish, siteDir, shotDir } from './harness.mjs';

const env = useBrowser();
const openPage = (url, options) => open(env.browser, url, options);

const params = (fragment) => Object.fromEntries(new URLSearchParams(fragment.replace(/^#/, '')));

// The brief's example, with a LoRA twist and a non-default currency.
const sharedLink = 'v=1&model=llama-3-70b&method=lora&lora_rank=64&seq_len=8192&tokens=2e9&gpus=16&tp=4&zero=1' +
  '&deadline_days=7&budget=40000&currency=EUR&objective=cost';

test('a shared link restores every input, and edits are written back to the address bar', async () => {
  const opened = await openPage(`${env.server.url}/#${sharedLink}`);
  const { page } = opened;
  const state = await page.evaluate(() => window.TrainSizer.current());
  assert.deepEqual(state.link_notice, []);
  const doc = state.document;
  assert.equal(doc.model, 'llama-3-70b');
  assert.equal(doc.method, 'lora');
  assert.equal(doc.lora_rank, 64);
  assert.equal(doc.seq_len, 8192);
  assert.equal(doc.tokens, 2e9);
  assert.equal(doc.gpus, 16);
  assert.equal(doc.tp, 4);
  assert.equal(doc.deadline_days, 7);
  assert.equal(doc.budget, 40000);
  assert.equal(doc.currency, 'EUR');
  assert.equal(doc.objective, 'cost');
  // The address bar holds the same inputs (in the page's own key order).
  const hash = await page.evaluate(() => location.hash);
  assert.deepEqual(params(hash), params(sharedLink));
  await page.screenshot({ path: path.join(shotDir, 'shared-link.png') });

  // Reloading the address bar's URL gives the same page state: the link round-trips.
  const href = await page.evaluate(() => location.href);
  const again = await openPage(href);
  const doc2 = await again.page.evaluate(() => window.TrainSizer.current().document);
  assert.deepEqual(doc2, doc);
  await finish(again);

  // A hand-edited fragment (hashchange) is read in without a reload.
  await page.evaluate(() => { location.hash = '#v=1&model=qwen2.5-7b&method=qlora'; });
  await page.waitForFunction(() => window.TrainSizer.current().document.model === 'qwen2.5-7b', null,
    { timeout: 10000 });
  const history = await page.evaluate(() => history.length);
  assert.ok(history <= 3, `edits must not pile up history entries (${history})`);
  await finish(opened);
});

test('a corrupted link names what it ignored and keeps working', async () => {
  const opened = await openPage(`${env.server.url}/#v=1&seq_len=oops&gpus=32&warp=9&model=gpt-9&tp=%ZZ`);
  const { page } = opened;
  const state = await page.evaluate(() => window.TrainSizer.current());
  // Each notice is a message: {code, args, message}, the message reading "key: why".
  for (const notice of state.link_notice) assert.ok(notice.code && notice.args, JSON.stringify(notice));
  const ignored = state.link_notice.map((notice) => notice.message.split(':')[0]).sort();
  assert.deepEqual(ignored, ['model', 'seq_len', 'tp=%ZZ', 'warp']);
  assert.equal(state.document.gpus, 32);
  assert.ok(state.result.memory.per_gpu_gib > 0, 'the page still computes');
  await page.screenshot({ path: path.join(shotDir, 'corrupted-link.png') });
  await finish(opened);
});

test('embed mode fits a 400 px iframe and the embed snippet page works', async () => {
  // The README's snippet: QLoRA on a 24 GB card, with tokens, so the plans are drawn too.
  const snippet = 'v=1&model=llama-3-8b&method=qlora&gpu=rtx-4090-24gb&activation_checkpointing=full&tokens=1e8';
  const opened = await openPage(`${env.server.url}/?embed=1#${snippet}`, { width: 400, height: 720 });
  const { page } = opened;
  const state = await page.evaluate(() => window.TrainSizer.current());
  assert.equal(state.embed, true);
  assert.equal(state.document.model, 'llama-3-8b');
  assert.equal(state.result.memory.fits, true, 'the README example fits its GPU');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 400, `no horizontal overflow (${width})`);
  await page.screenshot({ path: path.join(shotDir, 'embed-400.png') });
  // "Copy link" in an embed gives the full tool, with the same inputs.
  const shared = await page.evaluate(() => Module.tsHost.pageUrl());
  assert.ok(!shared.includes('embed=1') && shared.includes('#v=1'), shared);
  // Scrolled down to the plans: the narrow layout keeps them readable (see the screenshot).
  await page.mouse.move(200, 400);
  for (let i = 0; i < 12; ++i) await page.mouse.wheel(0, 100);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(shotDir, 'embed-400-scrolled.png') });
  await finish(opened);

  // The snippet page: a ready-to-paste iframe with embed=1, which loads and runs.
  const html = await (await fetch(`${env.server.url}/embed.html`)).text();
  assert.match(html, /<iframe src="[^"]*embed=1/);
  const context = await env.browser.newContext({ viewport: { width: 900, height: 1200 } });
  const snippetPage = await context.newPage();
  await snippetPage.goto(`${env.server.url}/embed.html`);
  const frame = await (await snippetPage.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => window.TrainSizer && window.TrainSizer.isReady, null, { timeout: 60000 });
  assert.equal(await frame.evaluate(() => window.TrainSizer.current().embed), true);
  await snippetPage.screenshot({ path: path.join(shotDir, 'embed-snippet-page.png'), fullPage: true });
  await context.close();
});

test('简体中文 from ?lang=zh and from the browser language, wide and narrow', async () => {
  for (const [url, locale, w, h, name] of [
    [`${env.server.url}/?lang=zh`, 'en-US', 1280, 800, 'zh-1280.png'],
    [`${env.server.url}/`, 'zh-CN', 420, 860, 'zh-420.png'],
  ]) {
    const opened = await openPage(url, { locale, width: w, height: h });
    const lang = await opened.page.evaluate(() => window.TrainSizer.current().lang);
    assert.equal(lang, 'zh');
    await opened.page.screenshot({ path: path.join(shotDir, name) });
    await finish(opened);
  }
});

test('exports and launch configs through the JS API', async () => {
  const opened = await openPage(`${env.server.url}/`);
  const out = await opened.page.evaluate(() => {
    const scenario = { model: 'llama-3-70b', method: 'full', gpus: 16, zero: 3, global_batch: 256, tokens: 2e9 };
    return {
      csv: window.TrainSizer.exportText({ ...scenario, deadline_days: 7 }, 'plan', 'csv'),
      md: window.TrainSizer.exportText(scenario, 'estimate', 'markdown'),
      launch: window.TrainSizer.launchConfigs(scenario),
    };
  });
  assert.match(out.csv.split('\n')[0], /gpu/i);
  assert.match(out.md, /^#/m);
  const ds = JSON.parse(out.launch.deepspeed);
  // 256 sequences = 16 data-parallel ranks × micro-batch 1 × 16 accumulation steps.
  assert.equal(ds.train_batch_size, 256);
  assert.equal(ds.zero_optimization.stage, 3);
  assert.equal(ds.train_micro_batch_size_per_gpu * ds.gradient_accumulation_steps * 16, 256);
  await finish(opened);
});

test('the offline file keeps its state in the hash, with no request leaving file://', async () => {
  const url = pathToFileURL(path.join(siteDir, 'trainsizer.html')).href + `#${sharedLink}`;
  const opened = await openPage(url);
  const state = await opened.page.evaluate(() => window.TrainSizer.current());
  assert.equal(state.document.model, 'llama-3-70b');
  assert.equal(state.document.lora_rank, 64);
  assert.deepEqual(opened.requests.filter((u) => !u.startsWith('file:')), []);
  await finish(opened);
});
