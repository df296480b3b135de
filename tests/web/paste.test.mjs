// Pasting and dropping documents into the page's text boxes, and keys shorter than a frame
// (wasm/input_queue.cpp, wasm/js/paste_drop.js, DocumentBox in wasm/ui/widgets.cpp). The
// boxes are drawn by ImGui into the canvas, so the browser's paste and drop only reach them
// through the page; checked as a person does it: a real Ctrl+V and Shift+Insert from the
// system clipboard, a paste with no key (the browser's menu), a file dropped on the box,
// and an Enter pressed and released between two frames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, finish, clickAnchor } from './harness.mjs';

const env = useBrowser();

// TinyLlama-1.1B's config.json (sizing keys verbatim): no preset has its shape.
const tinyLlama = (layers = 22) => JSON.stringify({
  architectures: ['LlamaForCausalLM'], hidden_act: 'silu', hidden_size: 2048, intermediate_size: 5632,
  max_position_embeddings: 2048, model_type: 'llama', num_attention_heads: 32, num_hidden_layers: layers,
  num_key_value_heads: 4, rms_norm_eps: 1e-05, tie_word_embeddings: false, vocab_size: 32000,
}, null, 2).replace(/\n/g, '\r\n');  // as pasted from Windows: the page drops the \r

// The text the page draws this frame (every section open), from TrainSizer._drawnText.
async function drawnText(page) {
  await page.evaluate(() => window.TrainSizer._drawnText(true));
  const frame = await page.evaluate(() => window.TrainSizer.current().frames);
  await page.waitForFunction((f) => window.TrainSizer.current().frames > f + 1, frame, { timeout: 4000 });
  const text = await page.evaluate(() => window.TrainSizer._drawnText(false));
  await page.waitForTimeout(100);  // a frame with the sections as the person left them
  return text;
}

// Opens the page with the config.json box shown and being edited.
async function openConfigBox(permissions = []) {
  const opened = await openPage(env.browser, env.server.url + '/', { width: 1280, height: 1700 });
  if (permissions.length) await opened.context.grantPermissions(permissions, { origin: env.server.url });
  const { page } = opened;
  await clickAnchor(page, 'hf-config');
  await clickAnchor(page, 'document:hf_config');
  await page.waitForTimeout(150);
  return opened;
}

// Clicks Import config.json and returns the model the page then computes with.
async function importConfig(page, layers) {
  await clickAnchor(page, 'import-config');
  await page.waitForFunction((n) => {
    const model = window.TrainSizer.current().scenario.model;
    return typeof model === 'object' && JSON.stringify(model).includes(`${n}`) &&
      JSON.stringify(model).includes('5632');
  }, layers, { timeout: 4000 });
  return page.evaluate(() => window.TrainSizer.current());
}

// How often the box's text holds the config's one-of-a-kind line.
function countIn(text, needle) { return text.split(needle).length - 1; }

test('Ctrl+V pastes the system clipboard into the config.json box, once, and the model imports', async () => {
  const opened = await openConfigBox(['clipboard-read', 'clipboard-write']);
  const { page } = opened;
  await page.evaluate((text) => navigator.clipboard.writeText(text), tinyLlama());
  await page.keyboard.press('Control+V');
  const drawn = await drawnText(page);
  assert.equal(countIn(drawn, '"intermediate_size": 5632'), 1, 'pasted once (not also by ImGui from its own clipboard)');
  assert.ok(!drawn.includes('\r'), 'no carriage returns');
  const state = await importConfig(page, 22);
  assert.equal(state.error, undefined);
  await finish(opened);
});

test('Shift+Insert pastes too, replacing the selected text', async () => {
  const opened = await openConfigBox(['clipboard-read', 'clipboard-write']);
  const { page } = opened;
  await page.keyboard.type('{"junk": 1}');
  await page.keyboard.press('Control+A');
  await page.evaluate((text) => navigator.clipboard.writeText(text), tinyLlama(11));
  await page.keyboard.press('Shift+Insert');
  const drawn = await drawnText(page);
  assert.equal(countIn(drawn, '"num_hidden_layers": 11'), 1);
  assert.ok(!drawn.includes('junk'), 'the selection was replaced');
  await importConfig(page, 11);
  await finish(opened);
});

test('a paste with no key (the browser menu) is typed into the box being edited', async () => {
  const opened = await openConfigBox();
  const { page } = opened;
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    document.getElementById('canvas').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
  }, tinyLlama(12));
  const drawn = await drawnText(page);
  assert.equal(countIn(drawn, '"num_hidden_layers": 12'), 1);
  await importConfig(page, 12);
  await finish(opened);
});

// Drops a file named `name` holding `text` at the middle of the anchor `target`.
async function dropFile(page, target, name, text) {
  const [x, y, w, h] = await page.evaluate((n) => window.TrainSizer.current().anchors[n], target);
  await page.evaluate(([fileName, body, cx, cy]) => {
    const data = new DataTransfer();
    data.items.add(new File([body], fileName, { type: 'application/json' }));
    const canvas = document.getElementById('canvas');
    const at = { dataTransfer: data, clientX: cx, clientY: cy, bubbles: true, cancelable: true };
    const over = new DragEvent('dragover', at);
    canvas.dispatchEvent(over);
    if (!over.defaultPrevented) throw new Error('the canvas refused the drag');
    canvas.dispatchEvent(new DragEvent('drop', at));
  }, [name, text, x + w / 2, y + h / 2]);
}

test('a config.json file dropped on its box replaces the text, and the model imports', async () => {
  const opened = await openConfigBox();
  const { page } = opened;
  await page.keyboard.type('{"typed before": true}');
  await page.waitForTimeout(150);
  await dropFile(page, 'document:hf_config', 'config.json', tinyLlama(13));
  const drawn = await drawnText(page);
  assert.equal(countIn(drawn, '"num_hidden_layers": 13'), 1);
  assert.ok(!drawn.includes('typed before'), 'the whole box was replaced');
  await importConfig(page, 13);

  // Dropped anywhere else (the header), a file changes nothing.
  const before = await page.evaluate(() => window.TrainSizer.current().scenario);
  await dropFile(page, 'examples', 'other.json', tinyLlama(14));
  await page.waitForTimeout(300);
  assert.equal(countIn(await drawnText(page), '"num_hidden_layers": 14'), 0);
  assert.deepEqual(await page.evaluate(() => window.TrainSizer.current().scenario), before);
  await finish(opened);
});

// An Enter pressed and released in one task always falls between two frames: before the
// input queue ImGui never saw it, and the typed value was not taken.
test('an Enter shorter than a frame is honoured', async () => {
  const opened = await openPage(env.browser, env.server.url + '/', { width: 1280, height: 1700 });
  const { page } = opened;
  assert.notEqual((await page.evaluate(() => window.TrainSizer.current())).scenario.tp, 2);
  await clickAnchor(page, 'field:tp', 0.25);
  await page.waitForTimeout(150);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.waitForTimeout(150);
  await page.evaluate(() => {
    for (const type of ['keydown', 'keyup']) {
      const event = new KeyboardEvent(type, { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true });
      Object.defineProperty(event, 'keyCode', { get: () => 13 });  // what Emscripten's GLFW reads
      document.getElementById('canvas').dispatchEvent(event);
    }
  });
  await page.waitForFunction(() => window.TrainSizer.current().scenario.tp === 2, null, { timeout: 4000 });
  await finish(opened);
});
