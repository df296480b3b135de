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
bash scripts/build.sh web
(cd tests/web && node --test --test-concurrency=1)
echo "All tests passed. Page screenshots: $repo_root/build/web/screenshots/"
