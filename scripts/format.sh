#!/usr/bin/env bash
# format.sh [--check]: clang-format (the style in .clang-format) over every C++ file git tracks or
# would track (new files not added yet included, ignored ones not).
# --check changes nothing and exits 1 listing the files that differ (CI runs it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "format.sh: clang-format is not installed (scripts/install-deps.sh --test)" >&2; exit 2; }
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h' '*.cc' |
  grep -v '^tests/fuzz/corpus/')
if [ "${1:-}" = "--check" ]; then
  bad=()
  for f in "${files[@]}"; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    printf 'format.sh: %d file(s) differ from .clang-format; run scripts/format.sh:\n' "${#bad[@]}"
    printf '  %s\n' "${bad[@]}"
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
  exit 0
fi
clang-format -i "${files[@]}"
echo "format.sh: formatted ${#files[@]} files"
