// Writes tests/fixtures/mge_reference/INPUT.SET.mge: what MegEngine v1.13.4's Network.dump
// writes for each input and option set of cases.json, through network_dump (built by
// scripts/build-megengine-reference.sh). Not run by CI or the tests, which read the outputs.
//
//   node scripts/megengine-reference/make-golden.mjs [BUILD_DIR]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(repo, 'tests', 'fixtures', 'mge_reference');
const cache = process.env.GRAPHPORT_CACHE ?? join(homedir(), '.cache', 'graphport');
const build = process.argv[2] ?? join(cache, 'megengine-v1.13.4', 'build');
const cases = JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8'));

const inputPath = (path) => (path.startsWith('corpus:')
  ? join(repo, '..', 'shared', 'corpus', path.slice('corpus:'.length))
  : join(fixtures, path.slice('fixture:'.length)));

for (const input of cases.inputs) {
  for (const set of cases.optionSets) {
    const out = join(fixtures, `${input.name}.${set.name}.mge`);
    execFileSync(join(build, 'network_dump'), [inputPath(input.path), out, ...set.reference], {
      stdio: 'inherit',
    });
  }
}
