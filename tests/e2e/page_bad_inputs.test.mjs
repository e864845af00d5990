// Issue 35: each input that is no model gets, in Chromium, the title and tip of its cause
// (tests/e2e/bad_inputs.mjs lists them), never another cause's: no "report it" above a Git LFS
// pointer, no SavedModel-tags tip and no Read options opened for a model.json without shards.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { BAD_INPUTS } from './bad_inputs.mjs';
import { openFiles, requireCorpus, screenshot, startPageSession } from './page_helpers.mjs';

let session;
let temp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-bad-'));
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

for (const [i, input] of BAD_INPUTS.entries()) {
  test(`${input.name}: titled by its cause`, async () => {
    const dir = join(temp, String(i));
    mkdirSync(dir);
    const paths = Object.entries(input.files).map(([name, bytes]) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    });
    const page = await session.newPage();
    await openFiles(page, paths);
    const box = '#open-message .error';
    assert.equal((await page.textContent(`${box} .error-head strong`)).trim(), input.title);
    const tips = await page.$$eval(`${box} .tips li`, (lis) => lis.map((li) => li.textContent));
    assert.ok(tips.some((t) => input.tip.test(t)), tips.join('\n'));
    assert.doesNotMatch(tips.join('\n'), /Please report it|SavedModel tags/);
    if (input.details) assert.match(await page.textContent(`${box} .message`), input.details);
    assert.equal(await page.$eval('#read-options', (d) => d.open), false, 'Read options hold no fix here');
    assert.equal(await page.isVisible('#summary-panel'), false);
    await screenshot(page, `bad-input-${i}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}
