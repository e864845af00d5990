// The first instantiation of graphport's module in this process: what a user's first
// createGraphport() pays. Only the first counts (V8 compiles the same bytes faster the second
// time in a process), so bench/run.sh runs this in several fresh processes.
//
//   node bench/wasm_instantiate.mjs [--package] [--json OUT]
//
// By default it takes the steps one after another and times each, in milliseconds:
//   glue         require() of the Emscripten JS glue (graphport_node.cjs)
//   read         readFileSync of the .wasm
//   compile      WebAssembly.compile: V8 decodes and validates every function (it compiles
//                each one lazily, when first called)
//   instantiate  new WebAssembly.Instance: memory, data and table segments
//   start        the rest of the factory: the module's constructors and Embind's registrations
// With --package, the package's own createGraphport() (bindings/js/node.mjs, which compiles
// while the glue is required), timed whole: total.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { now, repo } from './wasm_util.mjs';

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonPath = jsonAt >= 0 ? args[jsonAt + 1] : null;

function report(result) {
  console.log(Object.entries(result).map(([k, v]) => `${k} ${k === 'wasmBytes' ? v : v.toFixed(1)}`).join(', '));
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(result)}\n`);
}

if (args.includes('--package')) {
  const { default: createGraphport } = await import('../bindings/js/node.mjs');
  const start = now();
  await createGraphport();
  report({ package: now() - start });
  process.exit(0);
}

const t0 = now();
const factory = createRequire(import.meta.url)('../bindings/js/wasm/graphport_node.cjs');
const t1 = now();
const bytes = readFileSync(path.join(repo, 'bindings/js/wasm/graphport_node.wasm'));
const t2 = now();
const module = await WebAssembly.compile(bytes);
const t3 = now();
let instantiated = null;
await factory({
  instantiateWasm(imports, receive) {
    const instance = new WebAssembly.Instance(module, imports);
    instantiated = now();
    receive(instance, module);
    return instance.exports;
  },
});
const t4 = now();

const phases = {
  glue: t1 - t0, read: t2 - t1, compile: t3 - t2, instantiate: instantiated - t3, start: t4 - instantiated,
};
report({ ...phases, total: t4 - t0, wasmBytes: bytes.length });
