// Issue 17's page checks, as a user does them: a scenario that does not fit lists what
// would make it fit and one click on Apply makes it fit with the memory the option stated;
// the plans' proposal opens as a printable page, in English and in 中文, and prints
// without the calculator around it. Screenshots go to build/web/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, finish, clickAnchor, retryGesture, shotDir } from './harness.mjs';

const env = useBrowser();

// The seed's first scenario: Llama-3-8B LoRA on one RTX 4090, micro-batch 4 (does not fit).
const LORA_ON_4090 = '#v=1&model=llama-3-8b&gpu=rtx-4090-24gb&method=lora&micro_batch=4';
// The 70B example: full fine-tune of 2B tokens within a week and $40k.
const LLAMA_70B_GOAL = '#v=1&model=llama-3-70b&budget=40000&deadline_days=7&global_batch=256&tokens=2e9';

test('a fit option applied with one click makes the estimate fit with the memory it stated', async () => {
  const opened = await openPage(env.browser, env.server.url + '/' + LORA_ON_4090, { width: 1440, height: 1600 });
  const { page } = opened;
  const before = await page.evaluate(() => window.TrainSizer.current().result);
  assert.equal(before.memory.fits, false);
  assert.ok(before.fit_options.length >= 3, 'several ways to make it fit');
  const option = before.fit_options[0];
  await page.waitForFunction(() => window.TrainSizer.current().anchors['fit-option:0'], null, { timeout: 4000 });
  await page.screenshot({ path: path.join(shotDir, 'fit-options.png') });

  await retryGesture(page, () => clickAnchor(page, 'fit-option:0'),
    () => window.TrainSizer.current().result.memory.fits === true);
  const after = await page.evaluate(() => window.TrainSizer.current());
  for (const [field, value] of Object.entries(option.changes)) {
    assert.deepEqual(after.scenario[field], value, `Apply set ${field}`);
  }
  const stated = option.per_gpu_gib;
  assert.ok(Math.abs(after.result.memory.per_gpu_gib - stated) <= 0.01 * stated,
    `fits with ${after.result.memory.per_gpu_gib} GiB per GPU, the option said ${stated}`);
  await page.screenshot({ path: path.join(shotDir, 'fit-option-applied.png') });
  await finish(opened);
});

for (const [lang, title, bom] of [['en', 'Training proposal:', 'What each rented node must provide'],
  ['zh', '训练方案：', '每个租用节点须具备的配置']]) {
  test(`the proposal opens as a page to print (${lang})`, async () => {
    const opened = await openPage(env.browser, `${env.server.url}/${LLAMA_70B_GOAL}&lang=${lang}`,
      { width: 1440, height: 2000, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const { page } = opened;
    await retryGesture(page, () => clickAnchor(page, 'proposal'), () => document.querySelector('#ts-print h1'));
    const view = await page.evaluate(() => ({
      title: document.querySelector('#ts-print h1').textContent,
      headings: [...document.querySelectorAll('#ts-print h2')].map((h) => h.textContent),
      tables: document.querySelectorAll('#ts-print table').length,
      text: document.querySelector('#ts-print').textContent,
      lang: document.querySelector('#ts-print').getAttribute('lang'),
    }));
    assert.ok(view.title.startsWith(title), view.title);
    assert.ok(view.title.includes('Llama 3 70B'));
    assert.ok(view.headings.length >= 2, 'the recommended plan, an alternative or the GPUs left out');
    assert.ok(view.tables >= 3, 'figures, bill of materials and checklist are tables');
    assert.ok(view.text.includes(bom));
    assert.equal(view.lang, lang === 'zh' ? 'zh-CN' : 'en');
    await page.screenshot({ path: path.join(shotDir, `proposal-${lang}.png`) });

    // Printed, the page is the proposal alone: the calculator's canvas and the buttons are hidden.
    await page.emulateMedia({ media: 'print' });
    const printed = await page.evaluate(() => ({
      canvas: getComputedStyle(document.getElementById('canvas')).display,
      bar: getComputedStyle(document.querySelector('#ts-print .ts-bar')).display,
    }));
    assert.deepEqual(printed, { canvas: 'none', bar: 'none' });
    await page.screenshot({ path: path.join(shotDir, `proposal-print-${lang}.png`), fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    // Close (or Escape) brings the calculator back.
    await page.click('#ts-print .ts-bar button:last-child');
    assert.equal(await page.evaluate(() => document.getElementById('ts-print')), null);
    await finish(opened);
  });
}
