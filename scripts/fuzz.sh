#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`, clang) and runs each on its committed seed
# corpus for a bounded time: scripts/fuzz.sh [seconds-per-target] [target...]
# New corpus entries go to build/fuzz/fuzz-work/<target>/corpus, findings (crash-*,
# timeout-*, oom-*, leak-*) to build/fuzz/fuzz-work/<target>/artifacts; tests/fuzz/README.md
# says how to turn a finding into a regression test.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_scenario fuzz_hf_config fuzz_overlay fuzz_url_state)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc 2>/dev/null || echo 2)"
status=0
for target in "${targets[@]}"; do
  work=build/fuzz/fuzz-work/$target
  mkdir -p "$work/corpus" "$work/artifacts"
  echo "== $target: ${seconds} s"
  # -timeout=1: an input taking over a second is a finding (the page recomputes on every
  # edit); -rss_limit_mb/-malloc_limit_mb: so is a single input allocating over 2 GiB.
  "build/fuzz/tests/fuzz/$target" -max_total_time="$seconds" -timeout=1 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -dict=tests/fuzz/trainsizer.dict \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "tests/fuzz/corpus/$target" || status=1
done
exit $status
