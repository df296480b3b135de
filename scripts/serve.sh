#!/usr/bin/env bash
# README command 1: set up the machine, build the page and serve it at
# http://127.0.0.1:8080 (Ctrl-C stops). PORT=... picks another port.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo_root/scripts/bootstrap.sh"
bash "$repo_root/scripts/build.sh" web
port=${PORT:-8080}
echo "TrainSizer: http://127.0.0.1:$port/   (offline single file: $repo_root/build/web/site/trainsizer.html)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$repo_root/build/web/site"
