#!/usr/bin/env bash
# Configures and builds one preset (native | web) after bootstrapping the machine.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
preset=${1:?usage: scripts/build.sh native|web}
# Emscripten's tools run under the machine's Node.js, which does not search Debian's
# node modules (acorn) unless told to.
export NODE_PATH=/usr/share/nodejs
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs"
