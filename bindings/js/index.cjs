// CommonJS entry: the API is async anyway, so the ESM build is imported on first use.
'use strict';

let pending = null;

function createGraphport() {
  if (!pending) pending = import('./node.mjs').then((m) => m.default());
  return pending;
}

module.exports = createGraphport;
module.exports.default = createGraphport;
module.exports.createGraphport = createGraphport;
