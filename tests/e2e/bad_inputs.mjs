// Inputs that are no model, each made as a person meets it, with the title and a tip the page
// must show for its cause (issue 35: "error titles that contradict their cause"). Shared by the
// page's logic test (Node) and its Chromium test.
import { readFileSync } from 'node:fs';

import { corpusFile } from './page_helpers.mjs';

// 5,000 seeded bytes (mulberry32): random data that happens to begin with a few fields.
function randomBytes(count, seed) {
  let a = seed >>> 0;
  return Uint8Array.from({ length: count }, () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) & 0xff;
  });
}

const text = (s) => new TextEncoder().encode(s);

// {name, files: {name: bytes}, title, tip, details}: tip is a pattern one of the tips matches,
// details one the core's message matches.
export const BAD_INPUTS = [
  {
    name: 'random 5 KB',
    files: { 'random.bin': randomBytes(5000, 7) },
    title: 'This is not a protobuf',
    tip: /not a protobuf field/,
  },
  {
    name: 'a JSON file that is no model',
    files: { 'config.json': text('{"name": "my-app", "version": "1.0.0", "dependencies": {}}\n') },
    title: 'This JSON file is not a TensorFlow.js graph model',
    tip: /modelTopology/,
  },
  {
    // {'conv.weight': [1.0, 2.0], 'conv.bias': 0.5} as pickle.dumps(..., protocol=2) writes it.
    name: 'a pickled state dict',
    files: {
      'state_dict.pkl': Uint8Array.from(Buffer.from(
        '80027d710028580b000000636f6e762e77656967687471015d710228473ff0000000000000474000000000000000' +
        '655809000000636f6e762e626961737103473fe0000000000000752e', 'hex')),
    },
    title: 'This is a Python pickle, not a model graph',
    tip: /trace\.dump/,
  },
  {
    name: 'a Git LFS pointer named .mge',
    files: {
      'resnet50.mge': text('version https://git-lfs.github.com/spec/v1\n' +
        'oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 102502400\n'),
    },
    title: 'This is a Git LFS pointer, not the model',
    tip: /git lfs pull/,
  },
  {
    name: 'a model.json without its shards',
    files: { 'model.json': new Uint8Array(readFileSync(corpusFile('tfjsModel'))) },
    title: 'The model’s weight files are missing',
    tip: /group1-shard|weight files its weightsManifest names/,
    // The shard is looked for beside model.json, and the message says so.
    details: /looked for group1-shard1of1\.bin\)/,
  },
  {
    // The one that keeps the title it had: a real protobuf, with no graph in it.
    name: 'keras_metadata.pb',
    files: { 'keras_metadata.pb': new Uint8Array(readFileSync(corpusFile('keras'))) },
    title: 'This protobuf holds no TensorFlow graph',
    tip: /keras_metadata\.pb/,
  },
];
