// The installed package in a browser, through a bundler, as its users ship it: an app that
// does `import createGraphport from 'graphport'` is bundled with esbuild (platform browser,
// format esm), the .wasm is copied to where the bundle looks for it (esbuild leaves
// `new URL('./wasm/graphport_web.wasm', import.meta.url)` alone, so that is
// `wasm/graphport_web.wasm` beside the bundle), the output is served over http and run in
// Debian's Chromium. Its exports must equal the Node API's byte for byte. The README's browser
// example (tests/package/examples/browser-*) is built with its own build script and driven
// like a user: pick a file, follow the download links.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from '../e2e/browser.mjs';
import {
  CASES, CORPUS, ESBUILD_PACKAGE, EXAMPLES, corpusPath, describeFiles, esbuild, installPackage,
  repoExport, runOk, sha256,
} from './helpers.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
// No 'unsafe-eval': the loaders must not build functions from strings.
const STRICT_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'";
// The options the README's browser example exports with.
const EXAMPLE_OPTIONS = { asText: true };

const pkg = installPackage('browser');
const { app } = pkg;
// A build script finds the .wasm to copy through the package's exports, as a user's would.
const installedWasm = createRequire(join(app, 'package.json')).resolve('graphport/wasm/graphport_web.wasm');

let server;
let browser;
let origin;
let bundle;

// Every response and failure the page sees, to prove where the .wasm came from and that
// nothing 404'd.
function watch(page) {
  const seen = { responses: [], failures: [], errors: [] };
  // Chromium asks for a favicon nobody serves: not the package's business.
  const ignored = (url) => new URL(url).pathname === '/favicon.ico';
  page.on('response', (r) => ignored(r.url()) || seen.responses.push({
    path: new URL(r.url()).pathname, status: r.status(), type: r.headers()['content-type'],
  }));
  page.on('requestfailed', (r) => ignored(r.url()) || seen.failures.push(r.url()));
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('console', (m) => {
    const url = m.location()?.url ?? '';
    if ((m.type() === 'error' || m.type() === 'warning') && !(url && ignored(url))) seen.errors.push(m.text());
  });
  return seen;
}

function assertCleanLoad(seen, wasmPath) {
  assert.deepEqual(seen.failures, []);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.responses.filter((r) => r.status >= 400), []);
  const wasm = seen.responses.filter((r) => r.path.endsWith('.wasm'));
  assert.deepEqual(wasm, [{ path: wasmPath, status: 200, type: 'application/wasm' }],
    'the bundle fetched the .wasm once, from beside itself');
}

before(async () => {
  // The app's own copy of esbuild, as `npm install -D esbuild` would give it (linked from the
  // repo's devDependencies: the network is closed).
  mkdirSync(join(app, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ESBUILD_PACKAGE, join(app, 'node_modules', 'esbuild'), 'dir');
  symlinkSync(join(ESBUILD_PACKAGE, '..', '@esbuild'), join(app, 'node_modules', '@esbuild'), 'dir');
  symlinkSync('../esbuild/bin/esbuild', join(app, 'node_modules', '.bin', 'esbuild'));

  // The README's browser example, built by its own script: dist/{index.html, app.js, wasm/}.
  copyFileSync(join(EXAMPLES, 'browser-example.mjs'), join(app, 'app.mjs'));
  copyFileSync(join(EXAMPLES, 'browser-example.html'), join(app, 'index.html'));
  copyFileSync(join(EXAMPLES, 'browser-build.sh'), join(app, 'build.sh'));
  runOk('bash', ['-e', 'build.sh'], { cwd: app, env: pkg.env });

  // The test app, bundled through esbuild's API into a folder below the page, so the .wasm
  // is resolved from the bundle's URL and not the page's.
  copyFileSync(join(FIXTURES, 'fetch-app.mjs'), join(app, 'fetch-app.mjs'));
  const { build } = await esbuild();
  bundle = await build({
    absWorkingDir: app,
    entryPoints: ['fetch-app.mjs'],
    outfile: 'harness/assets/app.js',
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions: ['browser', 'default'],
    metafile: true,
    logLevel: 'silent',
  });
  mkdirSync(join(app, 'harness', 'assets', 'wasm'));
  copyFileSync(installedWasm, join(app, 'harness', 'assets', 'wasm', 'graphport_web.wasm'));
  writeFileSync(join(app, 'harness', 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>harness</title>\n' +
    '<script type="module" src="assets/app.js"></script>\n');

  // The same app in a page whose Content-Security-Policy lets scripts come only from the
  // server and compile WebAssembly, but not eval(): what a careful site sets.
  mkdirSync(join(app, 'strict'));
  writeFileSync(join(app, 'strict', 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>strict</title>\n' +
    `<meta http-equiv="Content-Security-Policy" content="${STRICT_POLICY}">\n` +
    '<script type="module" src="/harness/assets/app.js"></script>\n');

  // The same app beside the first half of the .wasm, as a cut-off copy leaves it.
  mkdirSync(join(app, 'broken', 'assets', 'wasm'), { recursive: true });
  copyFileSync(join(app, 'harness', 'index.html'), join(app, 'broken', 'index.html'));
  copyFileSync(join(app, 'harness', 'assets', 'app.js'), join(app, 'broken', 'assets', 'app.js'));
  const wasmBytes = readFileSync(installedWasm);
  writeFileSync(join(app, 'broken', 'assets', 'wasm', 'graphport_web.wasm'), wasmBytes.subarray(0, wasmBytes.length >> 1));

  server = await startServer({
    '/example/': join(app, 'dist'),
    '/harness/': join(app, 'harness'),
    '/broken/': join(app, 'broken'),
    '/strict/': join(app, 'strict'),
    '/corpus/': CORPUS,
  });
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('esbuild bundles the browser entry, not the Node one, without warnings', () => {
  assert.equal(installedWasm, join(app, 'node_modules', 'graphport', 'bindings', 'js', 'wasm', 'graphport_web.wasm'));
  assert.deepEqual(bundle.errors, []);
  assert.deepEqual(bundle.warnings, []);
  const inputs = Object.keys(bundle.metafile.inputs);
  assert.ok(inputs.includes('node_modules/graphport/bindings/js/browser.mjs'), inputs.join('\n'));
  assert.ok(inputs.includes('node_modules/graphport/bindings/js/wasm/graphport_web.mjs'));
  assert.deepEqual(inputs.filter((p) => /node\.mjs|index\.cjs|graphport_node|cli\.mjs/.test(p)), []);
  const code = readFileSync(join(app, 'harness', 'assets', 'app.js'), 'utf8');
  assert.doesNotMatch(code, /\brequire\(|from ["']node:/, 'the bundle reaches for Node modules');
});

test('the bundled app exports the same bytes in Chromium as the Node API', async () => {
  const page = await browser.newPage();
  try {
    const seen = watch(page);
    await page.goto(`${origin}/harness/`);
    await page.waitForFunction(() => window.graphportReady === true);
    for (const { rel, options, nodes } of CASES) {
      const got = await page.evaluate(([url, opts]) => window.graphportExport(url, opts), [`/corpus/${rel}`, options]);
      const expected = await repoExport(rel, options);
      assert.equal(got.summary.nodeCount, nodes, rel);
      assert.deepEqual(got.files, describeFiles(expected.files), `${rel}: export(${JSON.stringify(options)})`);
      assert.deepEqual(got.summary, expected.summary, `${rel}: inspect()`);
    }
    const error = await page.evaluate((bytes) => window.graphportError(bytes), [0x0a, 0xff, 0xff]);
    assert.equal(error.isGraphportError, true);
    assert.equal(error.code, 'PARSE_ERROR');
    assert.match(error.message, /^bad\.pb: /);
    assert.deepEqual(await page.evaluate(() => window.graphportStatus()), { liveModels: 0, hasLoadFile: false });
    assertCleanLoad(seen, '/harness/assets/wasm/graphport_web.wasm');
  } finally {
    await page.close();
  }
});

test("the bundled app runs under a Content-Security-Policy without 'unsafe-eval'", async () => {
  const page = await browser.newPage();
  try {
    const seen = watch(page);
    await page.goto(`${origin}/strict/`);
    await page.waitForFunction(() => window.graphportReady === true);
    const { rel, options } = CASES[0];
    const got = await page.evaluate(([url, opts]) => window.graphportExport(url, opts), [`/corpus/${rel}`, options]);
    const expected = await repoExport(rel, options);
    assert.deepEqual(got.files, describeFiles(expected.files), `${rel}: export(${JSON.stringify(options)})`);
    // A refused eval() is reported on the console as well as thrown.
    assertCleanLoad(seen, '/harness/assets/wasm/graphport_web.wasm');
  } finally {
    await page.close();
  }
});

test('a damaged .wasm rejects createGraphport() with the compile error, the console quiet', async () => {
  const page = await browser.newPage();
  try {
    const seen = watch(page);
    await page.goto(`${origin}/broken/`);
    await page.waitForFunction(() => window.graphportReady === true);
    const outcome = await page.evaluate(() => window.graphportStatus()
      .then(() => 'started', (e) => `${e.constructor.name}: ${e.message}`));
    // Which file, what V8 found wrong, and at which byte.
    const prefix = `CompileError: ${origin}/broken/assets/wasm/graphport_web.wasm: WebAssembly.instantiateStreaming(): `;
    assert.equal(outcome.startsWith(prefix), true, outcome);
    assert.match(outcome, /@\+\d+$/);
    // Emscripten's loader, left to itself, printed four warnings here and rejected with
    // "Aborted(...)".
    assert.deepEqual(seen.errors, []);
  } finally {
    await page.close();
  }
});

// tests/package/examples/browser-example.{mjs,html} and browser-build.sh are the README's.
test('the README browser example converts a picked file into download links', async () => {
  const page = await browser.newPage();
  try {
    const seen = watch(page);
    await page.goto(`${origin}/example/`);
    const { rel, nodes } = CASES[1];
    const expected = await repoExport(rel, EXAMPLE_OPTIONS);
    await page.setInputFiles('#model', corpusPath(rel));
    const links = page.locator('#output a[download]');
    await links.first().waitFor();
    assert.equal(await links.count(), expected.files.length);
    assert.match(await page.locator('#output').innerText(),
      new RegExp(`^${basename(rel).replace('.', '\\.')}: saved-model, ${nodes} nodes\\.`));
    for (let i = 0; i < expected.files.length; i += 1) {
      const link = links.nth(i);
      assert.equal(await link.getAttribute('download'), expected.files[i].name);
      // What the user would download: the bytes behind the link's blob: URL.
      const bytes = await link.evaluate(async (a) => [...new Uint8Array(await (await fetch(a.href)).arrayBuffer())]);
      assert.equal(sha256(Uint8Array.from(bytes)), sha256(expected.files[i].bytes), expected.files[i].name);
    }

    await page.setInputFiles('#model', {
      name: 'bad.pb', mimeType: 'application/octet-stream', buffer: Buffer.from([0x0a, 0xff, 0xff]),
    });
    await page.waitForFunction(() => document.querySelector('#output').textContent.startsWith('PARSE_ERROR: bad.pb: '));
    assert.equal(await links.count(), 0);
    assertCleanLoad(seen, '/example/wasm/graphport_web.wasm');
  } finally {
    await page.close();
  }
});
