// Page budgets, measured (not a test: scripts/budgets.sh runs it by hand and turns the
// numbers into build/budgets.md). Prints one JSON object on stdout, progress on stderr:
//   transfer   gzip -9 sizes of what a gzip-serving web server sends (index.html,
//              trainsizer.js, trainsizer.wasm; the CJK font is inside the wasm), and the
//              offline trainsizer.html raw and gzipped, for information;
//   firstFrame navigation → first rendered frame in headless Chromium (SwiftShader WebGL),
//              median of fresh page loads after one uncounted warm-up load:
//              TrainSizer.firstFrameMs (performance.now() in Module.onFirstFrames,
//              wasm/js/pre.js) when the build has it, otherwise the time from page.goto()
//              to TrainSizer.isReady measured in Node;
//   replans    memory of one page after 100 / 500 / 1,000 TrainSizer.plan calls with
//              varying scenarios: WebAssembly linear memory and the JS heap after a GC;
//   edits      the same for inputs changed through the page's #fragment (the path a user's
//              edit takes: parse link → page state → re-estimate and re-plan), unless --edits 0.
// Options: --loads N (5), --plans N (1000), --edits N (1000). TRAINSIZER_SITE picks the site.
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { serveDirectory } from './static_server.mjs';
import { launchChromium, openPage, siteDir } from './harness.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const loads = option('loads', 5);
const plans = option('plans', 1000);
const edits = option('edits', 1000);
const checkpoints = [100, 500, 1000].filter((n) => n <= Math.max(plans, edits));
const log = (...args) => console.error('[budgets]', ...args);

const TRANSFER_BUDGET = 1.5 * 1024 * 1024;  // 1,572,864 bytes
const GROWTH_LIMIT = 0.10;

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

function transferSizes() {
  const files = {};
  let raw = 0;
  let gzip = 0;
  for (const name of ['index.html', 'trainsizer.js', 'trainsizer.wasm']) {
    const buf = readFileSync(path.join(siteDir, name));
    files[name] = { raw: buf.length, gzip: gz(buf) };
    raw += buf.length;
    gzip += files[name].gzip;
  }
  const offlineBuf = readFileSync(path.join(siteDir, 'trainsizer.html'));
  // The CJK subset the build embeds in the wasm (for information; already counted above).
  const fontFile = path.join(siteDir, '../generated/ui-cjk-subset.ttf');
  const font = existsSync(fontFile) ? { raw: readFileSync(fontFile).length, gzip: gz(readFileSync(fontFile)) } : null;
  return {
    files, raw, gzip, budget: TRANSFER_BUDGET, ok: gzip <= TRANSFER_BUDGET,
    offline: { raw: offlineBuf.length, gzip: gz(offlineBuf) }, cjkFont: font,
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// A fresh context per load: empty HTTP and code caches, like a first visit.
// The page on the local server, with the first frame's time from its own clock.
async function openHome(browser, server) {
  const opened = await openPage(browser, server.url + '/', { timeoutMs: 120000 });
  const pageMs = await opened.page.evaluate(() => window.TrainSizer.firstFrameMs ?? null);
  return { ...opened, nodeMs: opened.loadMs, pageMs };
}

// Closes a page, keeping what went wrong on it.
async function close(opened, problems) {
  problems.push(...opened.problems);
  await opened.context.close();
}

async function firstFrame(browser, server, problems) {
  // One load first, not counted: the first page of a just-launched browser also pays for
  // starting the GPU process and SwiftShader (seconds on a busy 2-core machine).
  await close(await openHome(browser, server), problems);
  const samples = [];
  for (let i = 0; i < loads; ++i) {
    const opened = await openHome(browser, server);
    const { nodeMs, pageMs } = opened;
    samples.push({ pageMs, nodeMs });
    log(`load ${i + 1}/${loads}: first frame ${pageMs == null ? '-' : pageMs.toFixed(0)} ms (page clock), ` +
        `${nodeMs.toFixed(0)} ms (goto → ready, Node clock)`);
    await close(opened, problems);
  }
  const usePage = samples.every((s) => s.pageMs != null);
  const values = samples.map((s) => (usePage ? s.pageMs : s.nodeMs));
  return {
    method: usePage ? 'TrainSizer.firstFrameMs: performance.now() in Module.onFirstFrames (since navigation start)'
      : 'page.goto() start → TrainSizer.isReady, Node clock (this build has no TrainSizer.firstFrameMs)',
    samplesMs: values.map((v) => Math.round(v)), medianMs: Math.round(median(values)),
    gotoToReadyMedianMs: Math.round(median(samples.map((s) => s.nodeMs))),
  };
}

// WebAssembly linear memory (Module is a global in this non-modularized build) and the JS
// heap after a forced garbage collection, through the DevTools protocol.
async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? null;
  const wasmBytes = await page.evaluate(() => window.Module.HEAP8.buffer.byteLength);
  return { wasmBytes, jsHeapUsedBytes: metric('JSHeapUsedSize'), jsHeapTotalBytes: metric('JSHeapTotalSize') };
}

// Growth from the 100th call to the last sample; null when there are not two samples.
function growth(all) {
  const samples = all.filter((s) => s.count > 0);
  if (samples.length < 2) return null;
  const first = samples.find((s) => s.count === 100) ?? samples[0];
  const last = samples[samples.length - 1];
  const g = (k) => (last[k] - first[k]) / first[k];
  const wasm = g('wasmBytes');
  const js = g('jsHeapUsedBytes');
  return { from: first.count, to: last.count, wasm, js, ok: wasm <= GROWTH_LIMIT && js <= GROWTH_LIMIT };
}

// A page with a DevTools session for memory samples: sample(n) records the memory after
// n calls (at the checkpoints only) and logs it as "<what>: n".
async function openMeasured(browser, server, what) {
  const opened = await openHome(browser, server);
  const cdp = await opened.context.newCDPSession(opened.page);
  await cdp.send('Performance.enable');
  const samples = [{ count: 0, ...(await memory(opened.page, cdp)) }];
  const sample = async (count) => {
    if (!checkpoints.includes(count)) return;
    samples.push({ count, ...(await memory(opened.page, cdp)) });
    log(`${what}: ${count}, wasm ${samples.at(-1).wasmBytes} B, JS heap ${samples.at(-1).jsHeapUsedBytes} B`);
  };
  return { opened, page: opened.page, samples, sample };
}

// 1,000 plans cycling through 3 models × 3 token counts × 3 budgets × 2 deadlines × 2
// methods (108 distinct scenarios), in batches so the page keeps drawing frames between.
async function replans(browser, server, problems) {
  const { opened, page, samples, sample } = await openMeasured(browser, server, 're-plans');
  let done = 0;
  let errors = 0;
  let candidates = 0;
  const started = performance.now();
  while (done < plans) {
    const batch = Math.min(10, plans - done);
    const r = await page.evaluate(([from, n]) => {
      const models = ['llama-3-8b', 'llama-3-70b', 'mixtral-8x7b'];
      const tokens = [1e9, 2e9, 5e9];
      const budgets = [20000, 40000, 80000];
      let errs = 0;
      let cands = 0;
      for (let i = from; i < from + n; ++i) {
        const out = window.TrainSizer.plan({
          model: models[i % 3], method: Math.floor(i / 54) % 2 ? 'lora' : 'full', tokens: tokens[Math.floor(i / 3) % 3],
          budget: budgets[Math.floor(i / 9) % 3], deadline_days: Math.floor(i / 27) % 2 ? 14 : 7,
        });
        if (out.error) ++errs; else cands += out.candidates_evaluated;
      }
      return { errs, cands };
    }, [done, batch]);
    errors += r.errs;
    candidates += r.cands;
    done += batch;
    await sample(done);
  }
  const seconds = (performance.now() - started) / 1000;
  await close(opened, problems);
  return { count: plans, errors, msPerPlan: (seconds * 1000) / plans, layoutsPerPlan: candidates / Math.max(1, plans - errors),
           samples, growth: growth(samples) };
}

// Inputs changed through the address bar's #fragment (the page reads it once per frame).
async function hashEdits(browser, server, problems) {
  const { opened, page, samples, sample } = await openMeasured(browser, server, 'hash edits');
  const started = performance.now();
  let link = await page.evaluate(() => window.TrainSizer.current().link);
  for (let i = 1; i <= edits; ++i) {
    const models = ['llama-3-8b', 'llama-3-70b', 'mixtral-8x7b'];
    const model = models[i % 3];
    const seq = 1024 * (1 + (i % 8));
    const gpus = 8 << (i % 4);
    const fragment = `v=1&model=${model}&method=${i % 2 ? 'lora' : 'full'}&seq_len=${seq}&gpus=${gpus}&zero=3`;
    await page.evaluate((f) => { location.hash = '#' + f; }, fragment);
    // Applied, and the page's own rewrite of the address bar has landed. The page writes
    // the link back a frame after applying it (wasm/main.cpp: RecomputeIfDirty runs before
    // SyncAddressBar), and a fragment set before that write-back is overwritten by it.
    await page.waitForFunction(([m, s, g, before]) => {
      const c = window.TrainSizer.current();
      const d = c.document;
      return d.model === m && d.seq_len === s && d.gpus === g && c.link !== before && location.hash === '#' + c.link;
    }, [model, seq, gpus, link], { timeout: 30000, polling: 5 }).catch(async (e) => {
      const now = await page.evaluate(() => ({ hash: location.hash, link: window.TrainSizer.current().link,
        notice: window.TrainSizer.current().link_notice }));
      throw new Error(`hash edit ${i} (${fragment}) not applied: ${JSON.stringify(now)}: ${e.message}`);
    });
    link = await page.evaluate(() => window.TrainSizer.current().link);
    await sample(i);
  }
  const seconds = (performance.now() - started) / 1000;
  const state = await page.evaluate(() => window.TrainSizer.current());
  await close(opened, problems);
  return { count: edits, msPerEdit: (seconds * 1000) / edits, stillComputes: state.result?.memory?.per_gpu_gib > 0,
           samples, growth: growth(samples) };
}

const result = { site: siteDir, transfer: transferSizes() };
log(`transfer (gzip -9): ${result.transfer.gzip} B of ${TRANSFER_BUDGET} B`);
const server = await serveDirectory(siteDir);
const browser = await launchChromium();
const problems = [];
try {
  result.firstFrame = await firstFrame(browser, server, problems);
  if (plans > 0) result.replans = await replans(browser, server, problems);
  if (edits > 0) result.edits = await hashEdits(browser, server, problems);
} finally {
  await browser.close();
  await server.close();
}
result.problems = problems;
result.ok = result.transfer.ok && problems.length === 0 &&
  (!result.replans || ((result.replans.growth?.ok ?? true) && result.replans.errors === 0)) &&
  (!result.edits || ((result.edits.growth?.ok ?? true) && result.edits.stillComputes));
console.log(JSON.stringify(result, null, 2));
