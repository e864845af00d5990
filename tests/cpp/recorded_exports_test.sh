#!/usr/bin/env bash
# Every TensorFlow export of every corpus graph is byte for byte what graphport wrote before the
# family seam (tests/fixtures/tf_export_digests.tsv, recorded with the native CLI at 8c0446a).
# Since then a SavedModel is written as a folder that -o names, so its files are looked for
# inside it. Usage: recorded_exports_test.sh GRAPHPORT REPO CORPUS
set -u
GP="$1"
REPO="$2"
CORPUS="$3"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
checked=0
sets=("" "--clear-devices --strip-default-attrs --clear-extraneous-savers" "--save-debug-info")

while IFS=$'\t' read -r file to encoding set name digest; do
  case "$file" in '#'* | '') continue ;; esac
  run="$tmp/$checked"
  text=()
  [ "$encoding" = text ] && text=(--as-text)
  # shellcheck disable=SC2086
  if ! "$GP" export "$CORPUS/$file" -o "$run/out" --to "$to" "${text[@]}" ${sets[$set]} \
      2>"$tmp/err" >/dev/null < /dev/null; then
    mkdir -p "$run"
    # The directory for -o must exist for a file output; make it and try once more.
    # shellcheck disable=SC2086
    "$GP" export "$CORPUS/$file" -o "$run/out" --to "$to" "${text[@]}" ${sets[$set]} \
      2>"$tmp/err" >/dev/null || { echo "FAIL: $file $to $encoding #$set: $(cat "$tmp/err")"; status=1; }
  fi
  path="$run/$name"
  if [ "$to" = saved-model ]; then
    ext=pb
    [ "$encoding" = text ] && ext=pbtxt
    path="$run/out/saved_model.$ext"
    [ "$name" = out_debug ] && path="$run/out/saved_model_debug.$ext"
  fi
  got="$(sha256sum "$path" 2>/dev/null | cut -c1-64)"
  if [ "$got" != "$digest" ]; then
    echo "FAIL: $file --to $to ($encoding, option set $set) $name: $got, recorded $digest"
    status=1
  fi
  rm -rf "$run"
  checked=$((checked + 1))
done <"$REPO/tests/fixtures/tf_export_digests.tsv"

[ "$checked" -ge 380 ] || { echo "FAIL: only $checked recorded exports checked"; status=1; }
[ "$status" -eq 0 ] && echo "PASS: $checked exports as recorded" || echo "FAILED"
exit "$status"
