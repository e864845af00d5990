#!/usr/bin/env bash
# Fails if a C++ file of the project differs from what clang-format makes of it with the
# repository's .clang-format (Google style, 100 columns). Fix with:
#   git ls-files '*.cc' '*.h' | xargs clang-format -i
# Run from the repository root.
set -u

CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
command -v "$CLANG_FORMAT" >/dev/null 2>&1 || { echo "$CLANG_FORMAT not found (scripts/setup.sh installs it)"; exit 1; }

status=0
checked=0
while IFS= read -r file; do
  checked=$((checked + 1))
  if ! "$CLANG_FORMAT" --dry-run -Werror "$file" >/dev/null 2>&1; then
    echo "not formatted: $file"
    status=1
  fi
done < <(git ls-files '*.cc' '*.h')
[ "$checked" -gt 0 ] || { echo "no C++ files found: run from the repository root"; exit 1; }
echo "$checked C++ files checked"
exit $status
