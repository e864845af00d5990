#!/usr/bin/env bash
# The native CLI built with the toy family of the test tree: the family shows up in inspect,
# export, --help and `graphport schema`, and the TypeScript types made from that schema hold its
# option, with no change to src/api, src/cli, bindings or web.
# Usage: toy_cli_test.sh GRAPHPORT_WITH_TOY REPO
set -u
GP="$1"
REPO="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
ok() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; status=1; }

printf 'TOY1\nhello\nworld\n' >"$tmp/words.txt"
"$GP" inspect "$tmp/words.txt" | grep -q '^words:       2$' && ok "inspect renders the toy's summary" ||
  fail "inspect: $("$GP" inspect "$tmp/words.txt" 2>&1)"
mkdir "$tmp/out"
# The toy has no filename option: its one output is words.txt beside -o.
"$GP" export "$tmp/words.txt" -o "$tmp/out/ignored" --shout 2>/dev/null &&
  [ "$(cat "$tmp/out/words.txt")" = "$(printf 'TOY1\nHELLO\nWORLD')" ] &&
  ok "export --shout writes the toy's output" || fail "export --shout: $(ls "$tmp/out")"
"$GP" --help | grep -q -- '--shout' && ok "--help lists --shout" || fail "--help lacks --shout"
"$GP" export "$tmp/words.txt" -o "$tmp/out/ignored" --suffix '!' 2>/dev/null &&
  [ "$(cat "$tmp/out/words.txt")" = "$(printf 'TOY1\nhello!\nworld!')" ] &&
  ok "export --suffix reaches the toy's options" || fail "export --suffix: $(cat "$tmp/out/words.txt")"
"$GP" --help | grep -q -- '--suffix TEXT' && ok "--help lists --suffix" || fail "--help lacks --suffix"
"$GP" inspect "$tmp/words.txt" | grep -q '^letters:     10$' && ok "inspect shows the letters" ||
  fail "inspect lacks letters"
"$GP" schema toy >"$tmp/toy.json" && grep -q '"seed": "shout_words"' "$tmp/toy.json" &&
  ok "schema toy" || fail "schema toy: $(cat "$tmp/toy.json")"
"$GP" schema >"$tmp/all.json"
node "$REPO/scripts/gen-types.mjs" --schemas "$tmp/all.json" --out "$tmp/options.d.ts" &&
  grep -q '  shout?: boolean | null;' "$tmp/options.d.ts" && grep -q "'toy'" "$tmp/options.d.ts" &&
  grep -q '  suffix?: string | null;' "$tmp/options.d.ts" &&
  ok "the generated types hold the toy's option" || fail "generated types lack the toy"
# The toy's described results, in its own file: its summary fields after the shared header,
# and its summary in the union by family.
grep -q '^  words: string\[\];$' "$tmp/results_toy.d.ts" &&
  grep -q '^  letters: number;$' "$tmp/results_toy.d.ts" &&
  grep -q "^export interface ToySummary extends SummaryHeader<'toy', 'Toy', 'toy-text', 'text'> {$" \
    "$tmp/results_toy.d.ts" &&
  grep -q '^export type Summary = .* | ToySummary;$' "$tmp/results.d.ts" &&
  ok "the generated result types hold the toy's summary" || fail "result types lack the toy"
[ "$status" -eq 0 ] && echo "PASS" || echo "FAILED"
exit "$status"
