// "The page survives anything": malformed links, an exception or allocation failure in
// any stage of a frame (link, recompute, plan search, drawing), at start-up, in a catalog
// overlay, or thrown out of the module into a JS API call. After each the page keeps
// drawing frames, TrainSizer.current() parses with no NaN/inf figure in its result, the
// notice says what was refused, and the next good link takes effect.
//
// Failures are forced through the page's test hook (Module.tsFault, wasm/main.cpp), so
// these tests hold whether or not the engine bugs that once threw are fixed.
// Screenshots: build/web/screenshots/survive-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage as open, finish, shotDir } from './harness.mjs';

const env = useBrowser();
const openPage = (url, options) => open(env.browser, url, options);

// The console errors the page writes on purpose when it refuses something.
const refusedLine = /^console error: TrainSizer refused /;
function finishRefusals(opened) {
  const unexpected = opened.problems.filter((line) => !refusedLine.test(line));
  opened.problems.length = 0;
  opened.problems.push(...unexpected);
  return finish(opened);
}

// Every figure of a result: a number where a number is expected (the JSON writer turns
// NaN and infinities into null), no text that reads as one of those, no int64 minimum.
// Keys whose value is null when the result has no such part (not a number gone wrong):
// no claim to check; no catalog offer or server for the GPU (costs.rent, .own,
// .rent_vs_buy); renting stays cheaper over the horizon (rent_vs_buy.break_even_month).
const optionalParts = new Set(['claim_check', 'rent', 'own', 'rent_vs_buy', 'break_even_month']);
function badFigures(value, where = 'result', out = []) {
  if (value === null) {
    if (!optionalParts.has(where.split('.').pop())) out.push(`${where} is null`);
  }
  else if (typeof value === 'number') {
    if (!Number.isFinite(value) || value === -(2 ** 63)) out.push(`${where} = ${value}`);
  } else if (typeof value === 'string') {
    if (/\binf\b|nan|-9223372036854775808/i.test(value)) out.push(`${where} = ${JSON.stringify(value.slice(0, 80))}`);
  } else if (Array.isArray(value)) value.forEach((v, i) => badFigures(v, `${where}[${i}]`, out));
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) badFigures(v, `${where}.${k}`, out);
  return out;
}

// The page's state, checked: current() answers with an object (not an error), and its
// result (if any) has only finite figures.
async function checkedState(page, label) {
  const state = await page.evaluate(() => {
    const s = window.TrainSizer.current();
    return { text: JSON.stringify(s), frames: Module.tsFrames };
  });
  const parsed = JSON.parse(state.text);
  assert.equal(typeof parsed, 'object', label);
  assert.ok(!('error' in parsed && !('document' in parsed)), `${label}: current() failed: ${state.text.slice(0, 300)}`);
  assert.deepEqual(badFigures(parsed.result), [], `${label}: figures`);
  return { ...parsed, frames: state.frames };
}

// Sets the address bar's fragment and waits until the page has drawn a few frames after
// reading it, and has estimated and planned it (Module.tsBusy: nothing left to compute).
// The frames are counted from the hashchange event, not from the assignment: on a busy
// machine the event can come several frames later, and the page reads it at its next frame.
async function navigate(page, fragment) {
  const changed = await page.evaluate((f) => new Promise((resolve) => {
    if (location.hash === f || location.hash === '#' + f) return resolve(Module.tsFrames);
    window.addEventListener('hashchange', () => resolve(Module.tsFrames), { once: true });
    location.hash = f;
  }), fragment);
  await page.waitForFunction((n) => Module.tsFrames >= n && !Module.tsBusy, changed + 3,
    { timeout: 30000, polling: 20 });
}

// The page is still drawing: its frame counter moves on.
async function assertDrawing(page, label) {
  const before = await page.evaluate(() => Module.tsFrames);
  await page.waitForFunction((n) => Module.tsFrames >= n, before + 2, { timeout: 10000, polling: 20 })
    .catch(() => assert.fail(`${label}: the page stopped drawing at frame ${before}`));
}

// A good link, different each time (the tokens), applied and in effect.
async function assertGoodLinkApplies(page, i, label) {
  const tokens = (i + 1) * 1e8;
  await navigate(page, `#v=1&model=llama-3-8b&method=lora&tokens=${tokens}`);
  const s = await checkedState(page, `${label}: then the good link`);
  assert.equal(s.document.model, 'llama-3-8b', `${label}: the good link's model`);
  assert.equal(s.document.method, 'lora', `${label}: the good link's method`);
  assert.equal(s.document.tokens, tokens, `${label}: the good link's tokens`);
  assert.ok(s.result && s.result.memory.per_gpu_gib > 0, `${label}: the good link is computed`);
  return s;
}

const big = (n, c) => c.repeat(n);
const malformed = [
  '#v=1&claim=x&claim.wall_hours=1',
  '#v=1&model=llama-3-70b&mfu=5e-324&tokens=1e9&gpus=16&zero=3',
  '#v=1&model=%FF%FE%00',
  '#v=1&seq_len=%ZZ&tp=%4',
  '#v=1&model=llama-3-8b%',
  '#v=1&gpus=1e400',
  '#v=1&tokens=1e308&gpus=4096&deadline_days=7',
  '#v=1&seq_len=5e-324&lora_rank=5e-324',
  '#v=1&budget=-0&deadline_days=-0&tokens=-0',
  '#v=1&mfu=NaN&tokens=nan',
  '#v=1&tokens=Infinity&budget=-Infinity&seq_len=inf',
  '#v=1&gpus=0x10&seq_len=1e3.5',
  `#v=1&model=${big(10000, 'x')}`,
  `#v=1&lora_rank=${big(10000, '9')}`,
  '#v=1&currency=%C3%28&region=%E2%82',
  '#v=1&%ED%A0%80=1&m.%FF=2',
  '#v=1&gpus=8&gpus=16&gpus=abc&model=qwen2.5-7b&model=gpt-9',
  '#v=1&m.layers=0',
  '#v=1&m.layers=0&m.hidden=0&m.heads=0&m.ffn=0&m.vocab=0',
  '#v=1&m.layers=1e9&m.hidden=1e9&m.heads=1&m.ffn=1e9&m.vocab=1e9&tokens=1e12&deadline_days=7',
  '#v=1&gpu=warp-drive-9000&allowed_gpus=warp-drive-9000,,x',
  `#${big(2001, '&')}`,
  '#%',
  '#v=999',
  '#v=-1&model=llama-3-8b&v=abc',
  '#v=1&tokens=1e9&gpus=2147483648&tp=4294967296',
  '#v=1&global_batch=-9223372036854775808&micro_batch=9223372036854775807',
  '#v=1&micro_batch=0&global_batch=0&seq_len=0',
  '#v=1&lang=xx&theme=purple&embed=1',
  '#v=1&params_b=1e-300',
  '#v=1&params_b=1e300&tokens=1e30&deadline_days=1e-9',
  '#v=1&claim.tokens_per_s=5e-324&claim.wall_hours=1e308',
  '#v=1&model=llama-3-70b&tokens=1e9&gpus=16&zero=3&deadline_days=1e-300&budget=5e-324',
  '#v=1&purchase=own&tokens=1e9&deadline_days=7&objective=nonsense',
  '#==&=&&=x&x=&%3D=%26',
  `#v=1&${Array.from({ length: 300 }, (_, i) => `k${i}=${i}`).join('&')}`,
];

test('30+ malformed links: the page keeps drawing, current() stays clean, the next good link applies', async (t) => {
  assert.ok(malformed.length >= 30);
  const opened = await openPage(`${env.server.url}/#v=1&model=llama-3-8b`);
  const { page } = opened;
  for (const [i, link] of malformed.entries()) {
    const label = `link ${i} ${link.slice(0, 60)}`;
    await navigate(page, link);
    const s = await checkedState(page, label);
    if (s.refusal) t.diagnostic(`${label}: ${s.refusal}`);  // an engine bug, survived
    await assertDrawing(page, label);
    if (i === 2) await page.screenshot({ path: path.join(shotDir, 'survive-malformed.png') });
    await assertGoodLinkApplies(page, i, label);
  }
  await finishRefusals(opened);
});

test('a link that throws at start-up starts the page on its first screen with a notice', async () => {
  // The brief's link, which once stopped the page with "Uncaught [object WebAssembly.Exception]".
  const real = await openPage(`${env.server.url}/#v=1&claim=x&claim.wall_hours=1`);
  await checkedState(real.page, 'claim=x at start');
  await assertDrawing(real.page, 'claim=x at start');
  await assertGoodLinkApplies(real.page, 0, 'claim=x at start');
  await finishRefusals(real);

  // Whatever the link: an exception while reading it at start is refused, not fatal.
  const forced = await openPage(`${env.server.url}/#v=1&model=qwen2.5-7b&method=qlora`, {
    initScript: 'window.Module = { tsFault: { stage: "link", kind: "exception", times: 1 } };',
  });
  const s = await checkedState(forced.page, 'forced start-up fault');
  assert.match(s.refusal, /^Refused the link #v=1&model=qwen2\.5-7b&method=qlora after an internal error: test fault/);
  assert.equal(s.document.model, 'llama-3-8b', 'the first screen');
  assert.ok(s.result.memory.per_gpu_gib > 0);
  await assertDrawing(forced.page, 'forced start-up fault');
  await assertGoodLinkApplies(forced.page, 1, 'forced start-up fault');
  assert.equal((await checkedState(forced.page, 'after')).refusal, '', 'a new link clears the refusal');
  assert.ok(forced.problems.some((line) => refusedLine.test(line)), 'the refusal is logged to the console');
  await finishRefusals(forced);
});

test('an exception in any stage is refused: the last good inputs and result stay, the next link works', async () => {
  const opened = await openPage(`${env.server.url}/#v=1&model=llama-3-8b&method=lora&tokens=1e8`);
  const { page } = opened;
  const faults = [
    { stage: 'link', kind: 'exception', times: 1 },
    { stage: 'link', kind: 'other', times: 1 },
    { stage: 'recompute', kind: 'bad_alloc', times: 1 },
    { stage: 'recompute', kind: 'exception', times: 1 },
    // Every frame of the search, as the brief's mfu=5e-324 link once did.
    { stage: 'plan', kind: 'bad_alloc', times: 100000 },
    { stage: 'plan', kind: 'other', times: 1 },
  ];
  for (const [i, fault] of faults.entries()) {
    const label = `${fault.stage}/${fault.kind}`;
    const good = await assertGoodLinkApplies(page, 10 + i, label);
    await page.evaluate((f) => { Module.tsFault = { ...f }; }, fault);
    const bad = `#v=1&model=llama-3-70b&tokens=1e9&gpus=16&zero=3&deadline_days=30&seq_len=${1024 * (i + 1)}`;
    await navigate(page, bad);
    const s = await checkedState(page, label);
    const why = { exception: /test fault in /, bad_alloc: /out of memory \(std::bad_alloc\)/, other: /unknown exception/ };
    assert.match(s.refusal, new RegExp(`^Refused the link ${bad.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), label);
    assert.match(s.refusal, why[fault.kind], label);
    assert.match(s.refusal, /The last inputs that worked are back\.$/, label);
    assert.deepEqual(s.document, good.document, `${label}: the last good inputs are back`);
    assert.deepEqual(s.result, good.result, `${label}: the last good result stays`);
    assert.equal(s.planning, false, `${label}: the pending plan search is dropped`);
    const hash = await page.evaluate(() => location.hash);
    assert.equal(hash, `#${good.link}`, `${label}: the address bar holds the inputs in force`);
    if (i === 4) await page.screenshot({ path: path.join(shotDir, 'survive-refused.png') });
    await assertDrawing(page, label);
    await page.evaluate(() => { Module.tsFault = null; });  // the bug fixed, or another input
    await assertGoodLinkApplies(page, 20 + i, label);
  }

  // Drawing throws once: the frame is closed cleanly and the next one draws.
  await page.evaluate(() => { Module.tsFault = { stage: 'draw', kind: 'exception', times: 1 }; });
  await assertDrawing(page, 'draw once');
  assert.match((await checkedState(page, 'draw once')).refusal, /^Refused drawing the page after an internal error/);
  await assertGoodLinkApplies(page, 30, 'draw once');

  // Three frames in a row: back to the last good inputs, then without the overlay, then
  // the first screen.
  await page.evaluate(() => { Module.tsFault = { stage: 'draw', kind: 'bad_alloc', times: 3 }; });
  await page.waitForFunction(() => Module.tsFault.times === 0, null, { timeout: 10000 });
  await page.waitForFunction(() => !Module.tsBusy, null, { timeout: 30000 });
  const reset = await checkedState(page, 'draw thrice');
  assert.match(reset.refusal, /The page started over from its first screen\.$/);
  assert.equal(reset.document.model, 'llama-3-8b');
  assert.equal(reset.document.method, 'full', 'the first screen');
  await assertGoodLinkApplies(page, 31, 'draw thrice');

  // Every frame: only the notice is drawn until a new link comes in.
  await page.evaluate(() => { Module.tsFault = { stage: 'draw', kind: 'exception', times: 1e9 }; });
  await page.waitForFunction(() => /until a new link/.test(window.TrainSizer.current().refusal), null,
    { timeout: 10000 });
  await assertDrawing(page, 'draw always');
  await checkedState(page, 'draw always');
  await page.screenshot({ path: path.join(shotDir, 'survive-safe-mode.png') });
  await page.evaluate(() => { Module.tsFault = null; });
  await assertGoodLinkApplies(page, 32, 'draw always');
  assert.equal((await checkedState(page, 'after')).refusal, '');

  // TrainSizer.applyLink: the same refusal, as an error object.
  await page.evaluate(() => { Module.tsFault = { stage: 'link', kind: 'bad_alloc', times: 1 }; });
  const answer = await page.evaluate(() => window.TrainSizer.applyLink('#v=1&model=qwen2.5-7b'));
  assert.equal(answer.error.field, 'link');
  assert.equal(answer.error.code, 'input.refused');
  assert.match(answer.error.message, /std::bad_alloc/);
  const fine = await page.evaluate(() => window.TrainSizer.applyLink('#v=1&model=qwen2.5-7b&warp=9'));
  assert.equal(fine.ok, true);
  assert.deepEqual(fine.link_notice.map((l) => l.message.split(':')[0]), ['warp']);
  await page.waitForFunction(() => window.TrainSizer.current().document.model === 'qwen2.5-7b', null,
    { timeout: 10000 });
  await finishRefusals(opened);
});

test('the JS API never throws into JavaScript, and the page keeps drawing', async () => {
  const opened = await openPage(`${env.server.url}/`);
  const { page } = opened;
  const out = await page.evaluate(() => {
    const T = window.TrainSizer;
    const before = JSON.stringify(T.estimate({ model: 'llama-3-8b', method: 'lora' }));
    const thrown = [];
    // Thrown out of the module 500 times: the stack must not creep (it is put back).
    for (let i = 0; i < 500; ++i) thrown.push(T._testThrow(String(i)));
    const after = JSON.stringify(T.estimate({ model: 'llama-3-8b', method: 'lora' }));
    Module.tsFault = { stage: 'current', kind: 'bad_alloc', times: 1 };
    const failedCurrent = T.current();
    const nextCurrent = T.current();
    return {
      same: before === after,
      thrown: thrown.every((t) => t.error && t.error.field === 'internal'),
      failedCurrent,
      nextModel: nextCurrent.document && nextCurrent.document.model,
      utf8: T.estimate('{"model": "\uD800\uDFFF\uD800"}'),
      weird: [T.estimate(undefined), T.plan(() => 1), T.launchConfigs(Symbol.iterator), T.exportText(1n, 'x', 'y'),
        T.setCatalogOverlay('{"gpus": [{"id": "\uDC00"}]}'), T.applyLink(null)],
    };
  });
  assert.equal(out.same, true, 'the estimate is unchanged after 500 escaped exceptions');
  assert.equal(out.thrown, true);
  assert.equal(out.failedCurrent.error.field, 'page');
  assert.equal(out.nextModel, 'llama-3-8b');
  assert.ok(out.utf8.error, 'invalid UTF-16 text is an error');
  for (const w of out.weird.slice(0, 5)) assert.ok(w.error, JSON.stringify(w));
  assert.equal(out.weird[5].ok, true);
  await assertDrawing(page, 'JS API');
  await page.evaluate(() => window.TrainSizer.setCatalogOverlay(''));
  await assertGoodLinkApplies(page, 40, 'JS API');
  await finishRefusals(opened);
});

test('a catalog overlay with 0 depreciation years, then buying (and the other way round)', async () => {
  const opened = await openPage(`${env.server.url}/`);
  const { page } = opened;
  const overlay = await page.evaluate(() => {
    for (const content of Object.values(window.TrainSizer.catalog())) {
      const entry = content && Array.isArray(content.facility) &&
        content.facility.find((e) => e.id === 'depreciation-years');
      if (entry) return { facility: [{ ...entry, value: 0 }] };
    }
    return null;
  });
  assert.ok(overlay, 'the catalog has depreciation-years');
  const own = '#v=1&model=llama-3-70b&method=lora&tokens=2e9&purchase=own&deadline_days=30';
  for (const order of ['overlay first', 'purchase first']) {
    if (order === 'purchase first') await navigate(page, own);
    const set = await page.evaluate((o) => window.TrainSizer.setCatalogOverlay(o), overlay);
    assert.ok(set.ok || set.error, JSON.stringify(set));
    await assertDrawing(page, order);
    await page.waitForFunction(() => !Module.tsBusy, null, { timeout: 30000 });
    if (order === 'overlay first') await navigate(page, own);
    await checkedState(page, order);
    await assertDrawing(page, order);
    await page.evaluate(() => window.TrainSizer.setCatalogOverlay(''));
    await assertGoodLinkApplies(page, order === 'overlay first' ? 50 : 51, order);
  }
  // A JS overlay that replaces another is seen by the page too (same address in memory).
  const gpus = await page.evaluate(async () => {
    const T = window.TrainSizer;
    const gpu = T.catalog();
    let h100 = null;
    for (const content of Object.values(gpu)) {
      if (content && Array.isArray(content.gpus)) h100 = content.gpus.find((g) => g.id === 'h100-sxm-80gb') || h100;
    }
    const a = T.setCatalogOverlay({ gpus: [{ ...h100, id: 'test-gpu-a', name: 'Test GPU A' }] });
    await new Promise((r) => setTimeout(r, 300));
    const b = T.setCatalogOverlay({ gpus: [{ ...h100, id: 'test-gpu-b', name: 'Test GPU B' }] });
    return { a, b };
  });
  assert.equal(gpus.a.ok, true, JSON.stringify(gpus.a));
  assert.equal(gpus.b.ok, true, JSON.stringify(gpus.b));
  await navigate(page, '#v=1&model=llama-3-8b&gpu=test-gpu-b');
  const s = await checkedState(page, 'overlay B');
  assert.equal(s.document.gpu, 'test-gpu-b');
  assert.ok(s.result && s.result.memory.per_gpu_gib > 0);
  await page.evaluate(() => window.TrainSizer.setCatalogOverlay(''));
  await assertGoodLinkApplies(page, 52, 'overlay removed');
  await finishRefusals(opened);
});
