#!/usr/bin/env bash
# Installs everything TrainSizer needs on a fresh Debian 12 machine, as root, without prompts.
# Idempotent: each step is skipped when its result is already present, so it is safe to re-run.
# Sources: Debian's package archive (binary and source packages) and the npm registry only.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
third_party="$repo_root/third_party"   # ignored by git

log() { printf '[bootstrap] %s\n' "$*"; }

apt_packages=(
  cmake ninja-build g++ git pkg-config ca-certificates
  emscripten                       # clang-14 + lld + binaryen; WebAssembly toolchain
  nlohmann-json3-dev               # JSON (header-only)
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  chromium                         # headless browser for the page tests
  nodejs npm                       # runs the browser tests (playwright-core)
  fonttools fonts-inter fonts-wqy-microhei  # UI fonts, subset at build time
  python3 xz-utils dpkg-dev
  clang libclang-rt-14-dev         # libFuzzer + ASan/UBSan runtimes (preset fuzz, scripts/fuzz.sh)
  python3-yaml                     # tests/engine/exports/check_yaml.py parses the LLaMA-Factory YAML
)

missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# A machine may carry its own Node.js build that replaces Debian's nodejs/npm; accept it.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for pkg in "${missing[@]}"; do [[ "$pkg" == nodejs || "$pkg" == npm ]] || filtered+=("$pkg"); done
  missing=("${filtered[@]}")
fi
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  log "Debian packages present"
fi

# Debian source packages: their sources build natively and for WebAssembly alike (the
# -dev packages carry x86 libraries only, useless for WASM).
ensure_deb_src() {
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    log "adding a deb-src entry for Debian bookworm"
    cat > /etc/apt/sources.list.d/trainsizer-debian-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -q
  fi
}

# fetch_source NAME PINNED_VERSION ORIG_TARBALL_GLOB TREE MARKER_FILE
fetch_source() {
  local name=$1 version=$2 tarball=$3 tree=$4 marker=$5
  if [[ -f "$third_party/$tree/$marker" ]]; then
    log "$name sources present"
    return
  fi
  ensure_deb_src
  log "fetching the $name $version source package"
  mkdir -p "$third_party/$name-src"
  (cd "$third_party/$name-src" && apt-get source --download-only "$name=$version" >/dev/null 2>&1 \
     || apt-get source --download-only "$name")
  tar -xf "$third_party/$name-src"/$tarball -C "$third_party"
  [[ -f "$third_party/$tree/$marker" ]] || { echo "bootstrap: $name sources missing after extraction" >&2; exit 1; }
}

# Dear ImGui 1.86 (the page) and yaml-cpp 0.7 (config imports, engine/imports/).
fetch_source imgui 1.86+ds-1 'imgui_1.86*.orig.tar.xz' imgui-1.86 imgui.cpp
fetch_source yaml-cpp 0.7.0+dfsg-8 'yaml-cpp_0.7.0*.orig.tar.xz' yaml-cpp-yaml-cpp-0.7.0 src/parser.cpp

# npm dev dependencies for the browser tests (lock file is committed; never downloads a browser).
if [[ ! -d "$repo_root/tests/web/node_modules/playwright-core" ]]; then
  log "installing npm dev dependencies for the browser tests"
  (cd "$repo_root/tests/web" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
else
  log "npm dev dependencies present"
fi
log "done"
