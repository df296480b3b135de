#!/usr/bin/env bash
# README command 2: set up the machine, build everything, run every test: the native
# GoogleTest suites (ctest), the same under ASan/UBSan, each libFuzzer target for a
# minute, and the headless-Chromium page tests.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
jobs=$(nproc 2>/dev/null || echo 2)
# Each stage's start and the minutes so far, so a slow CI run shows where the time went.
stage() { printf '\n== [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

stage "bootstrap"
bash scripts/bootstrap.sh
stage "native build"
bash scripts/build.sh native
stage "native tests"
(cd build/native && ctest --output-on-failure -j "$jobs")
# The accuracy tables (predicted vs measured for every published run) for the log.
build/native/trainsizer validate
# The same suites under AddressSanitizer + UndefinedBehaviorSanitizer, plus the fuzz
# targets replaying their committed corpora and regressions (tests/fuzz/README.md).
stage "sanitize build (ASan + UBSan)"
bash scripts/build.sh sanitize
stage "sanitize tests"
(cd build/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j "$jobs")
# Each fuzz target (clang libFuzzer + ASan + UBSan, dictionary generated from the
# contract, numeric-edge mutator, strict result checks) for FUZZ_SECONDS (60) on its
# committed seeds. A finding fails the stage and is printed with the command that
# reproduces it. Everything it writes stays under build/fuzz/ (tests/fuzz/README.md).
stage "fuzz build (clang libFuzzer + ASan + UBSan)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
stage "fuzz: each target for ${FUZZ_SECONDS:-60} s"
# A per-input limit of 10 s here (1 s by hand): under ASan on two busy cores the slowest
# legitimate input (a DeepSeek-V3 plan over 2,048 GPUs) took 1.3 s, and 10 s still stops a hang.
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10} bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
stage "web build"
bash scripts/build.sh web
stage "browser tests"
(cd tests/web && node --test --test-concurrency=1)
stage "done"
echo "All tests passed. Page screenshots: $repo_root/build/web/screenshots/"
