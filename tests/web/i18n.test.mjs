// The 简体中文 page shows no English engine sentence. Every sentence the engine says
// (warnings, input errors, link notices, memory and time formulas, the server's bill of
// materials, the checklist, plan labels and rejections, launch notes, catalog prose) is a
// message id drawn from its Chinese template (engine/message.h). The test reads the text
// the page draws with every section open (TrainSizer._drawnText, ImGui's text log) for
// scenarios chosen to raise many kinds of message, and fails on English prose: four
// lowercase English words in a row, the rule tests/wasm/ui/i18n_test.cpp applies to the templates themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, finish, drawnText } from './harness.mjs';

const env = useBrowser();

// Links that reach, between them, most kinds of engine message.
const scenarios = [
  // The seed's first scenario: LoRA on one 4090 does not fit (the verdict, what to change).
  '#v=1&lang=zh&model=llama-3-8b&gpu=rtx-4090-24gb&method=lora',
  // 70B over two nodes with a deadline and a budget: pipeline bubble, plan labels,
  // rejections, the bill of materials for 16 GPUs, reliability over days.
  '#v=1&lang=zh&model=llama-3-70b&method=full&gpu=h100-sxm-80gb&gpus=16&tp=8&pp=2&zero=1&global_batch=8' +
    '&tokens=2000000000&deadline_days=7&budget=40000',
  // QLoRA at 32k without FlashAttention under ZeRO-3: the long-context warnings.
  '#v=1&lang=zh&model=qwen2.5-7b&flash_attention=false&gpu=a100-sxm-80gb&gpus=4&method=qlora&seq_len=32768&zero=3',
  // A link with an input error and an unknown key: the refusal and the link notice.
  '#v=1&lang=zh&model=llama-3-8b&tp=3&colour=red',
];

// Text that is not the engine speaking: numbers with units, ids, code in the launch
// previews (keys, flags, paths), and a model's or GPU's own name.
const kProse = /(?:\b[a-z]{2,}\b[ ,]+){3}\b[a-z]{2,}\b/;
const kCodeLine = /^\s*(?:[#{}\[\]"'-]|[\w.]+:|--|torchrun|deepspeed|python|export |cd )/;

function englishLines(text) {
  return text.split('\n').map((l) => l.trim()).filter((l) => l && !kCodeLine.test(l) && kProse.test(l));
}

test('the 中文 page shows no English engine sentence', async () => {
  const opened = await openPage(env.browser, `${env.server.url}/?lang=zh`, { width: 1440, height: 900 });
  const { page } = opened;
  const leaks = new Map();
  let drawn = 0;
  for (const fragment of ['', ...scenarios]) {
    if (fragment) await page.evaluate((f) => window.TrainSizer.applyLink(f), fragment);
    await page.waitForFunction(() => !window.TrainSizer.current().planning, null, { timeout: 60000 });
    const text = await drawnText(page);
    drawn += text.length;
    for (const line of englishLines(text)) {
      if (!leaks.has(line)) leaks.set(line, fragment || '(start)');
    }
  }
  assert.ok(drawn > 20000, `the page drew only ${drawn} characters of text`);
  const report = [...leaks].map(([line, where]) => `${where}\n    ${line.slice(0, 240)}`);
  assert.deepEqual(report, [], `English prose on the 中文 page:\n${report.join('\n')}`);
  await finish(opened);
});
