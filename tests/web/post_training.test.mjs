// Issue 20's page check, as a user does it: a GRPO run opened from a link is sized end to
// end (every role's memory, the step split with generation first, plans that fit), in
// English and in 中文, wide and at phone width. Screenshots go to build/web/screenshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, finish, drawnText, shotDir } from './harness.mjs';

const env = useBrowser();

// GRPO on Qwen2.5-7B: 20,000 maths prompts, 512-token prompts, answers of 2,048 tokens on
// average up to 4,096, within three days.
const GRPO = '#v=1&model=qwen2.5-7b&method=grpo&gpus=8&zero=3&prompt_len=512&response_len=2048' +
  '&max_response_len=4096&prompts=20000&deadline_days=3';

for (const [lang, width, generation, rollout] of [['en', 1440, 'Generation (rollout)', 'Rollout engine'],
  ['zh', 1440, '生成（rollout）', 'Rollout 引擎'], ['en', 390, 'Generation (rollout)', 'Rollout engine']]) {
  test(`the page sizes a GRPO run end to end (${lang}, ${width} px)`, async () => {
    const opened = await openPage(env.browser, `${env.server.url}/${GRPO}&lang=${lang}`,
      { width, height: width > 800 ? 2600 : 4200, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const { page } = opened;
    await page.waitForFunction(() => !window.Module.tsBusy && window.TrainSizer.current().plan, null, { timeout: 90000 });
    const { result, plan, scenario } = await page.evaluate(() => window.TrainSizer.current());
    assert.equal(scenario.method, 'grpo');
    const roles = result.rl.roles.map((r) => r.role);
    assert.deepEqual(roles.sort(), ['policy', 'reference', 'rollout'], 'GRPO: no critic, no reward model');
    for (const r of result.rl.roles) assert.ok(r.per_gpu_gib >= 0, JSON.stringify(r));
    const split = result.rl.step_breakdown_s;
    assert.ok(split.generation > 0 && split.training > 0, JSON.stringify(split));
    assert.ok(result.memory.fits, `${result.memory.per_gpu_gib} GiB per GPU`);
    assert.ok(result.time.wall_hours > 0, 'prompts × epochs give the run its time');
    assert.ok(plan.pareto.length > 0, JSON.stringify(plan.rejected));
    const text = await drawnText(page);
    assert.ok(text.includes(generation), 'the step split is drawn');
    assert.ok(text.includes(rollout), 'the roles table is drawn');
    await page.screenshot({ path: path.join(shotDir, `post-training-grpo-${lang}-${width}.png`), fullPage: true });
    await finish(opened);
  });
}
