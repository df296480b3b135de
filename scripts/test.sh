#!/usr/bin/env bash
# README command 2: set up the machine, build everything, run every test: the native
# GoogleTest suites (ctest), the same under ASan/UBSan, and the headless-Chromium page tests.
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
stage "web build"
bash scripts/build.sh web
stage "browser tests"
(cd tests/web && node --test --test-concurrency=1)
stage "done"
echo "All tests passed. Page screenshots: $repo_root/build/web/screenshots/"
