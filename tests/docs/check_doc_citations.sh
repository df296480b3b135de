#!/usr/bin/env bash
# Keeps the project's references valid (registered with ctest as doc_citations).
# (a) Every "model.md §X" (or the catalog's "model.md sX") cited in engine/, catalog/,
#     wasm/, web/, tests/, tools/ or README.md names a heading of docs/model.md whose
#     number is X ("## 6. Step time", "### 6.3 QLoRA dequantization"). Ranges
#     ("§2–4", "§9.5-9.6") need both ends; a citation may wrap onto the next line.
# (b) Every repository path written in the project's code and markdown (docs/…, engine/…,
#     catalog/…, tests/…, tools/…, scripts/…, wasm/…, web/…) names a file or folder that
#     exists, from the root or from the citing file's folder (CMake globs). Skipped: URLs,
#     JSON data (catalog sources cite other repositories' files), third_party/,
#     node_modules/, build/, brace lists, and paths that follow an "owner/repo" name
#     ("NVIDIA/Megatron-LM docs/…"), which belong to that repository.
# Usage: bash tests/docs/check_doc_citations.sh [repository root]. Needs bash, grep, awk.
set -u
export LC_ALL=C
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || { echo "check_doc_citations: no such directory: $root"; exit 2; }
doc=docs/model.md
if [ ! -f "$doc" ]; then
  echo "check_doc_citations: $doc is missing"
  exit 1
fi

fail=0
prune=(--exclude-dir=node_modules --exclude-dir=third_party --exclude-dir=build --exclude-dir=.git)

# ---------------------------------------------------------------------------------------
# (a) section citations

# Section numbers the document defines: "## 6. Title" gives 6, "### 6.3 Title" gives 6.3.
sections=$(grep -E '^#{2,4} [0-9]+(\.[0-9]+)*\.? ' "$doc" | awk '{ n = $2; sub(/\.$/, "", n); print n }' | sort -u)

# file:line:section for every citation (both ends of a range).
citations=$(grep -rlI "${prune[@]}" 'model\.md' engine catalog wasm web tests tools README.md 2>/dev/null |
  while IFS= read -r file; do
    awk -v file="$file" '
      function emit(tok, line,   parts, n, i) {
        gsub(/–/, "-", tok)
        n = split(tok, parts, "-")
        for (i = 1; i <= n; i++) if (parts[i] != "") print file ":" line ":" parts[i]
      }
      # All § tokens of `text`; returns how many.
      function scan(text, line,   count) {
        count = 0
        while (match(text, /§[0-9]+(\.[0-9]+)*((–|-)[0-9]+(\.[0-9]+)*)?/)) {
          emit(substr(text, RSTART + 2, RLENGTH - 2), line)
          text = substr(text, RSTART + RLENGTH)
          count++
        }
        return count
      }
      {
        if (carry) {
          carry = 0
          if (match($0, /^[ \t]*(\/\/|#|\*|--)?[ \t]*§[0-9]/)) {
            rest = substr($0, RSTART)
            if (match(rest, /§[0-9]+(\.[0-9]+)*((–|-)[0-9]+(\.[0-9]+)*)?/)) emit(substr(rest, RSTART + 2, RLENGTH - 2), NR - 1)
          }
        }
        pos = index($0, "model.md")
        if (pos == 0) next
        rest = substr($0, pos + 8)
        if (scan(rest, NR) > 0) next
        if (match(rest, /^ s[0-9]+(\.[0-9]+)*/)) { emit(substr(rest, RSTART + 2, RLENGTH - 2), NR); next }
        if (rest ~ /^[ \t(:,]*$/) carry = 1
      }' "$file"
  done)

count_a=0
while IFS= read -r entry; do
  [ -n "$entry" ] || continue
  count_a=$((count_a + 1))
  section=${entry##*:}
  if ! grep -qxF "$section" <<<"$sections"; then
    echo "${entry%:*}: cites model.md §$section, but $doc has no heading numbered $section"
    fail=1
  fi
done <<<"$citations"

# ---------------------------------------------------------------------------------------
# (b) repository paths

files=$(grep -rlI "${prune[@]}" -E '(docs|engine|catalog|tests|tools|scripts|wasm|web)/' \
          --include='*.cpp' --include='*.h' --include='*.mjs' --include='*.js' --include='*.sh' \
          --include='*.cmake' --include='CMakeLists.txt' --include='*.html' --include='*.py' --include='*.md' \
          engine catalog wasm web tests tools scripts cmake docs 2>/dev/null
        ls README.md CMakeLists.txt 2>/dev/null)

paths=$(for file in $files; do
  awk -v file="$file" '
    {
      line = $0
      gsub(/[A-Za-z][A-Za-z0-9+.-]*:\/\/[^ \t"'"'"'<>)`]*/, " ", line)        # URLs
      gsub(/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+[ \t]+`?(docs|engine|catalog|tests|tools|scripts|wasm|web)\/[^ \t"'"'"'<>)`]*/, " ", line)  # owner/repo path
      text = " " line
      while (match(text, /[^A-Za-z0-9_.\/@-](docs|engine|catalog|tests|tools|scripts|wasm|web)\/[A-Za-z0-9_.\/*{},-]*/)) {
        p = substr(text, RSTART + 1, RLENGTH - 1)
        text = substr(text, RSTART + RLENGTH)
        sub(/[.,]+$/, "", p)
        print file ":" NR ":" p
      }
    }' "$file"
done)

count_b=0
while IFS= read -r entry; do
  [ -n "$entry" ] || continue
  path=${entry#*:}
  path=${path#*:}
  location=${entry%:"$path"}
  case "$path" in
    *'{'*|*'}'*) continue ;;    # brace lists ("engine/{a,b}.h")
    *node_modules*) continue ;;  # installed by npm, not committed
  esac
  count_b=$((count_b + 1))
  # Relative to the repository root, or to the citing file's folder (CMake globs).
  found=0
  for candidate in "$path" "$(dirname "${location%%:*}")/$path"; do
    if [[ "$candidate" == *'*'* ]]; then
      compgen -G "$candidate" >/dev/null && found=1
    elif [ -e "$candidate" ]; then
      found=1
    fi
  done
  [ "$found" -eq 1 ] && continue
  echo "$location: names $path, which does not exist"
  fail=1
done <<<"$paths"

if [ "$fail" -ne 0 ]; then
  echo "check_doc_citations: FAILED (fix the reference, or the heading in $doc)"
  exit 1
fi
echo "check_doc_citations: $count_a section citations and $count_b repository paths resolve"
