#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`, clang) and the dictionary generated from
# the contract, then runs each target on its committed seed corpus for a bounded time:
#   scripts/fuzz.sh [seconds-per-target] [target...]
# scripts/test.sh (and CI) runs it with 60 s per target. Everything it writes is under
# build/fuzz/: new corpus entries in fuzz-work/<target>/corpus, findings (crash-*,
# timeout-*, oom-*, leak-*) in fuzz-work/<target>/artifacts, libFuzzer's output in
# fuzz-work/<target>/fuzz.log. A finding fails the run and is printed with the command
# that reproduces it; tests/fuzz/README.md says how to turn it into a regression test.
# FUZZ_KEEP_GOING=1 keeps fuzzing past findings (libFuzzer -fork=1 -ignore_crashes=1 ...),
# to collect several in one run; the run still fails if there was any. FUZZ_TIMEOUT
# (seconds, default 1) is the per-input limit; raise it only on a machine busy with
# other work, where a 100 ms input can take a second.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_scenario fuzz_hf_config fuzz_overlay fuzz_url_state fuzz_import)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc 2>/dev/null || echo 2)"
dict=build/fuzz/tests/fuzz/trainsizer.dict
[[ -s $dict ]] || { echo "fuzz: $dict was not generated" >&2; exit 1; }

# An input as escaped text (at most 600 bytes), for a log that has no file viewer.
show_input() {
  python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(repr(d[:600]) + (" ... (%d bytes)" % len(d) if len(d) > 600 else ""))' "$1" 2>/dev/null ||
    head -c 600 "$1" | od -An -c | head -20
}

keep_going=()
[[ ${FUZZ_KEEP_GOING:-0} == 1 ]] && keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)

status=0
summary=()
for target in "${targets[@]}"; do
  work=build/fuzz/fuzz-work/$target
  mkdir -p "$work/corpus" "$work/artifacts"
  before=$(find "$work/artifacts" -type f | sort)
  echo "== $target: ${seconds} s (log: $work/fuzz.log)"
  start=$SECONDS
  # -timeout=1: an input taking over a second is a finding (the page recomputes on every
  # edit); -rss_limit_mb/-malloc_limit_mb: so is a single input allocating over 2 GiB.
  rc=0
  "build/fuzz/tests/fuzz/$target" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-1}" -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -dict="$dict" "${keep_going[@]}" \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "tests/fuzz/corpus/$target" >"$work/fuzz.log" 2>&1 || rc=$?
  # The run's numbers: executions, speed, coverage, corpus size.
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/fuzz.log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$work/fuzz.log" | tail -1 || true)
  if ((${#keep_going[@]})); then  # fork mode prints "#runs: cov: ... exec/s N ..." instead
    runs=$(sed -nE 's/^#([0-9]+): cov:.*/\1/p' "$work/fuzz.log" | tail -1)
    speed=$(sed -nE 's/^#[0-9]+: cov:.* exec\/s ([0-9]+) .*/\1/p' "$work/fuzz.log" | tail -1)
  fi
  grep -E '^(INFO: Loaded|INFO: seed corpus|#[0-9]+ *(INITED|DONE))' "$work/fuzz.log" || true
  new=$(comm -13 <(printf '%s\n' "$before") <(find "$work/artifacts" -type f | sort) | sed '/^$/d')
  if ((rc != 0)) || [[ -n $new ]]; then
    status=1
    summary+=("$target: FINDING after $((SECONDS - start)) s (${runs:-?} executions)")
    echo "!! $target: finding (exit $rc). The end of libFuzzer's output:"
    grep -vE '^#[0-9]+ ' "$work/fuzz.log" | tail -60
    for artifact in $new; do
      echo "!! input $artifact:"
      show_input "$artifact"
      echo "!! reproduce: build/fuzz/tests/fuzz/$target $artifact"
      echo "!!   (minimize: build/fuzz/tests/fuzz/$target -minimize_crash=1 -runs=20000 $artifact)"
    done
    echo "!! then fix it and keep the input: tests/fuzz/README.md, \"To add a finding\""
  else
    summary+=("$target: ${seconds} s, ${runs:-?} executions, ${speed:-?} exec/s, ${cov:-?}, no findings")
  fi
done
echo "== fuzz summary"
printf '   %s\n' "${summary[@]}"
exit $status
