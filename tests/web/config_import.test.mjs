// Importing a team's own training config on the page (engine/imports/config_import.h,
// DrawConfigImportSection in wasm/ui/input_panel.cpp): a LLaMA-Factory YAML pasted into
// the import box is shown field by field, then applied; the link carries it. The JS API
// reads the same text. Screenshots go to build/web/screenshots (config-import-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, finish, clickAnchor, drawnText, retryGesture, shotDir } from './harness.mjs';

const env = useBrowser();

// LLaMA-Factory's examples/train_lora/llama3_lora_sft.yaml, as a team would have it.
const yaml = [
  '### model',
  'model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct',
  '### method',
  'stage: sft',
  'finetuning_type: lora',
  'lora_rank: 8',
  'lora_target: all',
  '### dataset',
  'dataset: identity,alpaca_en_demo',
  'cutoff_len: 2048',
  '### train',
  'per_device_train_batch_size: 2',
  'gradient_accumulation_steps: 8',
  'learning_rate: 1.0e-4',
  'num_train_epochs: 3.0',
  'bf16: true',
  '',
].join('\n');

async function pasteIntoImportBox(page) {
  await clickAnchor(page, 'config-import');
  await clickAnchor(page, 'document:config_import');
  await page.waitForTimeout(150);
  await page.evaluate((text) => navigator.clipboard.writeText(text), yaml);
  await page.keyboard.press('Control+V');
  await page.waitForTimeout(150);
}

for (const lang of ['en', 'zh']) {
  test(`a pasted LLaMA-Factory YAML is shown field by field, then applied (${lang})`, async () => {
    const opened = await openPage(env.browser, `${env.server.url}/#lang=${lang}`, { width: 1280, height: 1700 });
    const { page } = opened;
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await pasteIntoImportBox(page);
    await retryGesture(page, () => clickAnchor(page, 'config-import-read'),
      () => !!window.TrainSizer.current().anchors['config-import-apply']);
    const drawn = await drawnText(page);
    assert.ok(drawn.includes('lora_rank (6) -> lora_rank = 8'), 'the key, its line and the field it gives');
    assert.ok(drawn.includes('cutoff_len (10) -> seq_len = 2048'));
    assert.ok(drawn.includes(lang === 'zh' ? '训练超参数' : 'a training hyperparameter'), 'why learning_rate is not used');
    await page.screenshot({ path: path.join(shotDir, `config-import-read-${lang}.png`) });
    await retryGesture(page, () => clickAnchor(page, 'config-import-apply'), () => {
      const s = window.TrainSizer.current().scenario;
      return s.method === 'lora' && s.lora_rank === 8 && s.seq_len === 2048 && s.micro_batch === 2;
    });
    const state = await page.evaluate(() => window.TrainSizer.current());
    assert.equal(state.scenario.model, 'llama-3-8b');
    assert.equal(state.scenario.framework, 'llama-factory');
    assert.equal(state.error, undefined);
    // The link carries the imported scenario like any other.
    await page.waitForFunction(() => /lora_rank=8/.test(location.hash) || /rank=8/.test(location.hash), null,
      { timeout: 4000 });
    await page.screenshot({ path: path.join(shotDir, `config-import-applied-${lang}.png`) });
    await finish(opened);
  });
}

test('TrainSizer.importConfig reads the same YAML, and bad text gets its line and column', async () => {
  const opened = await openPage(env.browser, `${env.server.url}/`);
  const { page } = opened;
  const result = await page.evaluate((text) => window.TrainSizer.importConfig(text), yaml);
  assert.equal(result.scenario.method, 'lora');
  assert.equal(result.scenario.lora_rank, 8);
  assert.equal(result.scenario.seq_len, 2048);
  assert.equal(result.scenario.micro_batch, 2);
  assert.ok(result.ignored.some((i) => i.key === 'learning_rate' && i.line === 14));
  assert.ok(result.assumed.some((a) => a.field === 'gpus'));
  const zero3 = '{"zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": "auto"}';
  const both = await page.evaluate(([a, b]) => window.TrainSizer.importConfig(
    [{ name: 'train.yaml', text: a }, { name: 'ds_z3.json', text: b }]), [yaml, zero3]);
  assert.equal(both.scenario.zero, 3);
  const bad = await page.evaluate(() => window.TrainSizer.importConfig('lora_rank: [8\nstage: sft\n'));
  assert.match(bad.error.message, /line \d+, column \d+/);
  const notText = await page.evaluate(() => window.TrainSizer.importConfig(42));
  assert.ok(notText.error);
  await finish(opened);
});
