// Every row of tests/data/bad_inputs.json through the page's JS API (the CLI side is
// tests/engine/service/bad_input_test.cpp): TrainSizer.estimate / TrainSizer.plan must return
// {error: {field: <the row's field>, message}} without throwing, and afterwards the page
// must still answer a good scenario and draw its canvas, with no WASM abort
// ("Aborted", RuntimeError) or other error in the console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useBrowser, openPage, finish, distinctColours, repoRoot } from './harness.mjs';

const rows = JSON.parse(readFileSync(path.join(repoRoot, 'tests/data/bad_inputs.json'), 'utf8')).rows;
const env = useBrowser();

// Runs in the page: builds a row's text from its generator (bytes become Latin-1
// characters, as a JS string cannot hold raw bytes) and calls the API, reporting a throw
// instead of letting it escape.
function callInPage([command, input]) {
  const generate = (x) => {
    if (typeof x === 'string') return x;
    if ('repeat' in x) return x.repeat.repeat(x.times);
    if ('nest' in x) return '['.repeat(x.nest);
    if ('bytes_hex' in x) return x.bytes_hex.match(/../g).map((h) => String.fromCharCode(parseInt(h, 16))).join('');
    return x.concat.map(generate).join('');
  };
  const started = performance.now();
  try {
    const answer = window.TrainSizer[command](generate(input));
    return { answer, ms: performance.now() - started };
  } catch (e) {
    return { thrown: `${e && e.name}: ${e && e.message}`, ms: performance.now() - started };
  }
}

test('every bad input comes back as an error naming its field, and the page survives', async () => {
  const opened = await openPage(env.browser, env.server.url + '/');
  const { page } = opened;

  const wrong = [];
  let sent = 0;
  for (const row of rows) {
    if (row.cli_only_reason) continue;
    for (const command of row.commands || ['estimate', 'plan']) {
      const r = await page.evaluate(callInPage, [command, row.input]);
      ++sent;
      const error = r.answer && r.answer.error;
      const where = `${row.name} (${command})`;
      if (r.thrown) wrong.push(`${where}: threw ${r.thrown}`);
      else if (!error) wrong.push(`${where}: no error, got ${JSON.stringify(r.answer).slice(0, 200)}`);
      else if (error.field !== row.field) wrong.push(`${where}: field ${error.field}, want ${row.field}: ${error.message}`);
      else if (!error.message) wrong.push(`${where}: empty message`);
      else if (typeof error.code !== 'string' || typeof error.args !== 'object' || error.args === null) {
        wrong.push(`${where}: no code and args: ${JSON.stringify(error).slice(0, 200)}`);
      }
      // As the CLI (tests/engine/service/bad_input_test.cpp): every error has its template's code.
      else if (!error.code) wrong.push(`${where}: empty code`);
      else if (row.message_contains && !error.message.includes(row.message_contains)) {
        wrong.push(`${where}: message '${error.message}' lacks '${row.message_contains}'`);
      }
      if (r.ms > 20000) wrong.push(`${where}: took ${Math.round(r.ms)} ms`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(sent >= 90, `only ${sent} calls`);

  // Still alive: a good estimate and plan answer, and the canvas keeps drawing.
  const good = await page.evaluate(() => [
    window.TrainSizer.estimate({ model: 'llama-3-8b', gpus: 8, zero: 3 }),
    window.TrainSizer.plan({ model: 'llama-3-8b', method: 'lora', tokens: 1e8, max_gpus: 8 }),
  ]);
  assert.equal(good[0].params.total, 8030261248);
  assert.ok(good[1].picks.length > 0, JSON.stringify(good[1]).slice(0, 300));
  await page.waitForTimeout(300);
  assert.ok(await distinctColours(page) > 50, 'canvas looks blank after the bad inputs');
  await finish(opened);
});
