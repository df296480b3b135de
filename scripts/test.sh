#!/usr/bin/env bash
# README command 2: set up the machine, build everything, run every test: the native
# GoogleTest suites (ctest) and the headless-Chromium page tests.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
bash scripts/bootstrap.sh
bash scripts/build.sh native
(cd build/native && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
# The accuracy tables (predicted vs measured for every published run) for the log.
build/native/trainsizer validate
# The same suites under AddressSanitizer + UndefinedBehaviorSanitizer, plus the fuzz
# targets replaying their committed corpora and regressions (tests/fuzz/README.md).
bash scripts/build.sh sanitize
(cd build/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
bash scripts/build.sh web
(cd tests/web && node --test --test-concurrency=1)
echo "All tests passed. Page screenshots: $repo_root/build/web/screenshots/"
