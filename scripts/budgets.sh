#!/usr/bin/env bash
# Budgets, measured (a benchmark run by hand, not part of scripts/test.sh): the page's
# transfer size, navigation → first frame in headless Chromium, planner layouts/s natively
# and in WebAssembly, and the page's memory over 1,000 re-plans and 1,000 input edits.
# Prints a Markdown table and writes it to build/budgets.md; exits non-zero when the
# transfer size is over 1.5 MB, memory grows more than 10% from the 100th to the 1,000th
# call, or the page reports an error. Options go to tests/web/budgets.mjs
# (--loads N, --plans N, --edits N).
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"

[[ -x build/native/plan_bench ]] || bash scripts/build.sh native
[[ -f build/web/site/trainsizer.wasm && -f build/web/site/trainsizer.html && -f build/web/plan_bench.js ]] ||
  bash scripts/build.sh web
[[ -d tests/web/node_modules/playwright-core ]] || bash scripts/bootstrap.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# Planner speed. Google Benchmark's counter is layouts per CPU second (robust to other
# load on the machine); plan_bench (the same program natively and in WebAssembly under
# Node) measures wall-clock time, so it is run 3 times and the best run counts.
echo "[budgets] native planner benchmark (Google Benchmark BM_PlanFullSearch)" >&2
if [[ -x build/native/tests/bench_estimate ]]; then
  build/native/tests/bench_estimate --benchmark_filter='^BM_PlanFullSearch$' --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true --benchmark_format=json >"$work/gbench.json" 2>/dev/null
else
  echo '{}' >"$work/gbench.json"  # Google Benchmark was not found at configure time
fi
echo "[budgets] plan_bench, native and WebAssembly (3 runs each)" >&2
for i in 1 2 3; do build/native/plan_bench; done >"$work/plan_native.txt"
# Node compiles WebAssembly with its baseline compiler first and optimizes hot functions in
# background threads, which on a busy 2-core machine can take longer than the benchmark's
# 20 searches: --no-liftoff measures the optimized code a long-running page converges to.
for i in 1 2 3; do node --no-liftoff build/web/plan_bench.js; done >"$work/plan_wasm.txt"
for i in 1 2 3; do node build/web/plan_bench.js; done >"$work/plan_wasm_tiering.txt"

echo "[budgets] page: transfer size, first frame, memory (takes several minutes)" >&2
status=0
(cd tests/web && node budgets.mjs "$@") >"$work/page.json" || status=$?
if [[ $status -ne 0 ]]; then
  echo "[budgets] tests/web/budgets.mjs failed (exit $status)" >&2
  exit "$status"
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
export BUDGETS_WORK=$work BUDGETS_LOAD="$load_before → $load_after" BUDGETS_CPUS=$(nproc)
mkdir -p build
render=0
node --input-type=module >build/budgets.md <<'EOF' || render=$?
import { readFileSync } from 'node:fs';
const dir = process.env.BUDGETS_WORK;
const page = JSON.parse(readFileSync(`${dir}/page.json`, 'utf8'));
const gbench = JSON.parse(readFileSync(`${dir}/gbench.json`, 'utf8'));
// plan_bench prints "full default plan search: 14.5 ms per search, 1.10 M layouts/s (...)".
const best = (file) => Math.max(...readFileSync(`${dir}/${file}`, 'utf8').split('\n')
  .map((l) => /([\d.]+) M layouts\/s/.exec(l)).filter(Boolean).map((m) => Number(m[1])));
const int = (n) => Math.round(n).toLocaleString('en-US');
const mib = (n) => (n / 2 ** 20).toFixed(2);
const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const verdict = (ok) => (ok ? 'ok' : '**OVER**');
const t = page.transfer;
const rows = [];
rows.push(['page transfer, gzip -9 (index.html + trainsizer.js + trainsizer.wasm; the CJK font is inside the wasm)',
  `${int(t.gzip)} B (${mib(t.gzip)} MiB); raw ${int(t.raw)} B`, `≤ ${int(t.budget)} B (1.5 MiB)`, verdict(t.ok)]);
if (t.cjkFont) {
  rows.push(['of which the CJK font subset (for information)', `${int(t.cjkFont.gzip)} B gzip, ${int(t.cjkFont.raw)} B raw`, '', '']);
}
rows.push(['offline trainsizer.html (for information)', `${int(t.offline.raw)} B raw, ${int(t.offline.gzip)} B gzip`, '', '']);
const ff = page.firstFrame;
rows.push([`navigation → first rendered frame, headless Chromium + SwiftShader, median of ${ff.samplesMs.length} fresh loads`,
  `${int(ff.medianMs)} ms (loads: ${ff.samplesMs.map(int).join(', ')} ms); method: ${ff.method}`, 'measured', '']);
const median = (gbench.benchmarks || []).find((b) => b.aggregate_name === 'median');
if (median) {
  rows.push(['planner, native: Google Benchmark `BM_PlanFullSearch` (`build/native/tests/bench_estimate`), median of 5',
    `${(median.candidates_per_s / 1e6).toFixed(2)} M layouts per CPU second (${median.cpu_time.toFixed(1)} ms CPU per search)`, 'measured', '']);
}
rows.push(['planner, native: `build/native/plan_bench`, best of 3 (wall clock)', `${best('plan_native.txt').toFixed(2)} M layouts/s`, 'measured', '']);
rows.push(['planner, WebAssembly under Node: `node --no-liftoff build/web/plan_bench.js`, best of 3 (wall clock)',
  `${best('plan_wasm.txt').toFixed(2)} M layouts/s optimized; ${best('plan_wasm_tiering.txt').toFixed(2)} M layouts/s ` +
  'with Node\'s default tiering (baseline code while the optimizer catches up)', 'measured', '']);
if (page.replans) {
  const r = page.replans;
  rows.push([`planner in the page: \`TrainSizer.plan\` in headless Chromium, the ${int(r.count)} plans of the memory run below (wall clock, JSON included)`,
    `${(r.layoutsPerPlan / r.msPerPlan / 1e3).toFixed(2)} M layouts/s (${r.msPerPlan.toFixed(0)} ms and ${int(r.layoutsPerPlan)} layouts per plan)`, 'measured', '']);
}
function memoryRow(what, run) {
  if (!run) return;
  const s = run.samples.filter((x) => x.count > 0);
  const list = (k) => s.map((x) => `${mib(x[k])}`).join(' / ');
  const counts = s.map((x) => int(x.count)).join(' / ');
  const g = run.growth;
  rows.push([`page memory after ${counts} ${what}`,
    `WASM memory ${list('wasmBytes')} MiB; JS heap used after a forced GC ${list('jsHeapUsedBytes')} MiB` +
      (g ? `; growth ${int(g.from)} → ${int(g.to)}: WASM ${pct(g.wasm)}, JS ${pct(g.js)}` : ''),
    '≤ +10% growth', g ? verdict(g.ok) : 'n/a']);
}
memoryRow('re-plans (`TrainSizer.plan`, 108 scenarios in turn: 3 models × 3 token counts × 3 budgets × 2 deadlines × full/LoRA)', page.replans);
memoryRow('input edits through the address bar #fragment (each one re-estimates and re-plans the page)', page.edits);
const lines = ['| measure | result | budget | verdict |', '| --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.join(' | ')} |`)];
const date = new Date().toISOString().slice(0, 10);
lines.push('', `Taken ${date} on a ${process.env.BUDGETS_CPUS}-core machine (load average ${process.env.BUDGETS_LOAD}) by \`bash scripts/budgets.sh\`.`);
if (page.problems.length) lines.push('', 'Page problems: ' + page.problems.join('; '));
if (page.replans?.errors) lines.push('', `Re-plans that returned an error: ${page.replans.errors}`);
if (page.edits && !page.edits.stillComputes) lines.push('', 'After the edits the page no longer shows a result.');
console.log(lines.join('\n'));
if (!page.ok) process.exitCode = 1;
EOF
cat build/budgets.md
exit "$render"
