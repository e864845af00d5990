// Browser entry (ESM): works from a static file server, in a Worker, and through bundlers
// (the .wasm is located with new URL(..., import.meta.url), which bundlers understand).
import factory from './wasm/graphport_web.mjs';
import { createApi, GraphportError } from './api.mjs';
import { instantiateUrl, startLoader } from './instantiate.mjs';

export { GraphportError };

let instance = null;

export default function createGraphport() {
  if (!instance) {
    const wasmUrl = new URL('./wasm/graphport_web.wasm', import.meta.url).href;
    instance = startLoader(factory, (imports) => instantiateUrl(wasmUrl, imports), wasmUrl).then(createApi);
  }
  return instance;
}
export { createGraphport };
