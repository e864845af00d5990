#!/usr/bin/env bash
# Fails if a C++ file of the project differs from what clang-format makes of it with the
# repository's .clang-format (Google style, 100 columns). Fix with:
#   git ls-files '*.cc' '*.h' | xargs clang-format -i
# Run from the repository root.
set -u

CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
command -v "$CLANG_FORMAT" >/dev/null 2>&1 || { echo "$CLANG_FORMAT not found (scripts/setup.sh installs it)"; exit 1; }

# One clang-format process per 200 files: a process per file (757 of them) took most of this
# test's time. Each unformatted file is named on a "code should be clang-formatted" line.
mapfile -t files < <(git ls-files '*.cc' '*.h')
[ "${#files[@]}" -gt 0 ] || { echo "no C++ files found: run from the repository root"; exit 1; }
status=0
for ((i = 0; i < ${#files[@]}; i += 200)); do
  if ! report="$("$CLANG_FORMAT" --dry-run -Werror "${files[@]:i:200}" 2>&1)"; then
    status=1
    # clang-format's lines read "FILE:LINE:COL: error: code should be clang-formatted".
    grep -oE '^[^:]+:[0-9]+:[0-9]+: error: code should be clang-formatted' <<<"$report" \
      | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
    grep -q 'code should be clang-formatted' <<<"$report" || echo "$report"
  fi
done
echo "${#files[@]} C++ files checked"
exit $status
