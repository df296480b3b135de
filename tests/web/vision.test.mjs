// Issue 22's page check, as a user does it: a Qwen2.5-VL-7B fine-tune with images opened
// from a link is sized end to end (the sequence split into text and image tokens, memory
// that grows with the images and with a trained tower, plans that fit), in English and
// in 中文, wide and at phone width. Screenshots go to build/web/screenshots (vision-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, finish, drawnText, clickAnchor, retryGesture, shotDir } from './harness.mjs';

const env = useBrowser();

// LoRA on Qwen2.5-VL-7B: one 1024 × 1024 image and 500 text tokens per sample, 50M tokens
// within two days on two GPUs.
const VLM = '#v=1&model=qwen2.5-vl-7b&method=lora&gpus=2&zero=2&seq_len=500&images_per_sample=1' +
  '&image_resolution=1024,1024&tokens=5e7&deadline_days=2';

async function sized(opened) {
  const { page } = opened;
  await page.waitForFunction(() => !window.Module.tsBusy && window.TrainSizer.current().plan, null, { timeout: 90000 });
  return page.evaluate(() => window.TrainSizer.current());
}

for (const [lang, width, heading] of [['en', 1440, 'Sequence per sample'], ['zh', 1440, '每个样本的序列'],
  ['en', 390, 'Sequence per sample']]) {
  test(`the page sizes a vision-language fine-tune (${lang}, ${width} px)`, async () => {
    const opened = await openPage(env.browser, `${env.server.url}/${VLM}&lang=${lang}`,
      { width, height: width > 800 ? 2400 : 4200, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const { result, plan, scenario } = await sized(opened);
    assert.equal(scenario.model, 'qwen2.5-vl-7b');
    assert.deepEqual(scenario.image_resolution, [1024, 1024]);
    // 1024 px → 1036 px per side (multiples of 28): 37 × 37 = 1,369 tokens + 2 markers.
    assert.equal(result.sequence.media_tokens, 1371);
    assert.equal(result.sequence.text_tokens, 500);
    assert.equal(result.sequence.total_tokens, 1871);
    assert.ok(Math.abs(result.params.total / 8.29e9 - 1) < 0.01, `${result.params.total} parameters`);
    assert.ok(result.memory.fits, `${result.memory.per_gpu_gib} GiB per GPU`);
    assert.ok(plan.pareto.length > 0, JSON.stringify(plan.rejected));
    const text = await drawnText(opened.page);
    assert.ok(text.includes(heading), 'the sequence split is drawn');
    assert.ok(text.includes('1036'), 'the resized image is shown');
    await opened.page.screenshot({ path: path.join(shotDir, `vision-qwen25vl-${lang}-${width}.png`), fullPage: true });
    await finish(opened);
  });
}

test('more images and a trained tower take more memory on the page', async () => {
  const gib = async (extra) => {
    const opened = await openPage(env.browser, `${env.server.url}/${VLM}${extra}`, { width: 1280, height: 1200 });
    const { result } = await sized(opened);
    await finish(opened);
    return result.memory.per_gpu_gib;
  };
  const one = await gib('');
  assert.ok(await gib('&images_per_sample=6') > one, 'six images');
  assert.ok(await gib('&vision_training=full') > one, 'the tower trained in full');
});

// The launch configs of the same fine-tune: the ms-swift command and the TRL script carry
// the frozen parts, the pixel cap and the sequence of text and image tokens together
// (1,871 = 500 + 1,371), through the JS API and on the page's ms-swift tab.
test('the ms-swift and TRL launch configs of a vision-language fine-tune', async () => {
  // Tall enough that the export section, at the bottom, is drawn on screen to be clicked.
  const opened = await openPage(env.browser, `${env.server.url}/${VLM}&image_max_pixels=1003520`,
    { width: 1440, height: 6000 });
  const { page } = opened;
  await sized(opened);
  const launch = await page.evaluate(() => window.TrainSizer.launchConfigs(
    { model: 'qwen2.5-vl-7b', method: 'lora', gpus: 2, zero: 2, seq_len: 500, images_per_sample: 1,
      image_resolution: [1024, 1024] }));
  assert.match(launch.swift, /--max_length 1871\b/);
  assert.match(launch.swift, /--freeze_vit true --freeze_aligner true --freeze_llm false/);
  assert.match(launch.swift, /NPROC_PER_NODE=2/);
  assert.match(launch.trl, /AutoProcessor\.from_pretrained\(MODEL, max_pixels=12845056/);
  assert.match(launch.trl, /1871 tokens per sample \(500 text \+ 1371 media\)/);
  await retryGesture(page, () => clickAnchor(page, 'exports'),
    () => window.TrainSizer.current().anchors['launch-tool:swift']);
  await retryGesture(page, () => clickAnchor(page, 'launch-tool:swift'),
    () => window.TrainSizer.current().anchors['launch-config:swift'] !== undefined);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(shotDir, 'vision-launch-swift-1440.png'), fullPage: true });
  await finish(opened);
});
