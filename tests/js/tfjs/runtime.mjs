// The TensorFlow.js runtime for the tests: tfjs-core + tfjs-converter on the pure-JS cpu
// backend, and small tools over TF.js model files held in memory ({name: Uint8Array}).
// A missing devDependency fails the test file loudly: a runtime check that did not run proves
// nothing.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

// The package's package.json, found where Node resolves packages (some packages' exports do
// not list their package.json, so require.resolve cannot be asked for it).
function requireDevDependency(name) {
  for (const dir of require.resolve.paths(name) ?? []) {
    const path = join(dir, name, 'package.json');
    if (existsSync(path)) return path;
  }
  throw new Error(
    `graphport TF.js runtime tests: the devDependency ${name} is missing; run \`npm install\` ` +
      '(package.json lists it) before these tests.',
  );
}

const TFJS_PACKAGES = ['@tensorflow/tfjs-core', '@tensorflow/tfjs-converter', '@tensorflow/tfjs-backend-cpu'];
for (const name of TFJS_PACKAGES) requireDevDependency(name);
const HUMAN_PACKAGE = join(dirname(requireDevDependency('@vladmandic/human')), 'models');

export const tf = await import('@tensorflow/tfjs-core');
const converter = await import('@tensorflow/tfjs-converter');
await import('@tensorflow/tfjs-backend-cpu');
// Prod mode only silences TF.js's console warnings (the tfjs-node hint, "use execute()");
// the PROD flag changes no arithmetic.
tf.enableProdMode();
await tf.setBackend('cpu');
await tf.ready();

// The versions in use, for the report of a failing run.
export const VERSIONS = Object.fromEntries(
  [...TFJS_PACKAGES, '@vladmandic/human'].map((name) => [
    name, JSON.parse(readFileSync(requireDevDependency(name), 'utf8')).version,
  ]),
);

// A model of @vladmandic/human's models/ folder as graphport's load() takes it: model.json
// under its own name ("antispoof.json") and the shards its manifest names.
export function humanModelFiles(model) {
  const jsonName = `${model}.json`;
  const json = new Uint8Array(readFileSync(join(HUMAN_PACKAGE, jsonName)));
  const files = { [jsonName]: json };
  for (const group of JSON.parse(new TextDecoder().decode(json)).weightsManifest) {
    for (const path of group.paths) files[path] = new Uint8Array(readFileSync(join(HUMAN_PACKAGE, path)));
  }
  return { files, primary: jsonName };
}

// export()'s files as {name: bytes}.
export function filesOf(out) {
  return Object.fromEntries(out.files.map((f) => [f.name, f.bytes]));
}

function modelJsonName(files) {
  const names = Object.keys(files).filter((n) => n.endsWith('.json'));
  assert.equal(names.length, 1, `expected one model JSON among ${Object.keys(files)}`);
  return names[0];
}

export function modelJson(files) {
  return JSON.parse(new TextDecoder().decode(files[modelJsonName(files)]));
}

// The weight specs in manifest order and the shards concatenated in the same order: TF.js's
// own layout of a model's weight data.
export function artifactsOf(files) {
  const json = modelJson(files);
  const weightSpecs = [];
  const shards = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const path of group.paths) {
      assert.ok(files[path], `the manifest names shard ${path}, which is not among the files`);
      shards.push(files[path]);
    }
  }
  const weightData = new Uint8Array(shards.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of shards) {
    weightData.set(s, at);
    at += s.length;
  }
  return {
    json,
    artifacts: {
      modelTopology: json.modelTopology,
      weightSpecs,
      weightData: weightData.buffer,
      format: json.format,
      generatedBy: json.generatedBy,
      convertedBy: json.convertedBy,
      signature: json.signature,
      userDefinedMetadata: json.userDefinedMetadata,
      modelInitializer: json.modelInitializer,
      initializerSignature: json.initializerSignature,
    },
  };
}

export async function loadGraphModel(files) {
  const { artifacts } = artifactsOf(files);
  return converter.loadGraphModel(tf.io.fromMemory(artifacts));
}

// {name: {dtype, shape, values: typed array}} as TF.js decodes the manifest (dequantizing).
export function decodedWeights(files) {
  const { artifacts } = artifactsOf(files);
  const tensors = tf.io.decodeWeights(artifacts.weightData, artifacts.weightSpecs);
  const out = {};
  for (const [name, t] of Object.entries(tensors)) {
    out[name] = { dtype: t.dtype, shape: t.shape, values: t.dataSync().slice() };
    t.dispose();
  }
  return out;
}

// The model's signature where TF.js takes it from: userDefinedMetadata.signature (the
// converter's place for it before v2.8) wins over the top-level one.
export function signatureOf(json) {
  return json.userDefinedMetadata?.signature ?? json.signature;
}

// Seeded random inputs for the signature's inputs; -1 dims become 1. Integer inputs (images
// as int32 / uint8) take values in [0, 255].
export function seededInputs(json, seed) {
  const inputs = signatureOf(json)?.inputs;
  assert.ok(inputs && Object.keys(inputs).length > 0, 'the model has no signature inputs');
  const feeds = {};
  for (const [i, info] of Object.values(inputs).entries()) {
    const shape = (info.tensorShape?.dim ?? []).map((d) => (Number(d.size) < 0 ? 1 : Number(d.size)));
    const dtype = info.dtype === 'DT_FLOAT' ? 'float32' : 'int32';
    const t = dtype === 'float32'
      ? tf.randomUniform(shape, 0, 1, 'float32', seed + i)
      : tf.randomUniform(shape, 0, 255, 'int32', seed + i);
    feeds[info.name] = t;
  }
  return feeds;
}

// The signature's output tensor names, sorted: both models are run for these names, which
// the round trip keeps even where it drops the signature.
export function outputNames(json) {
  return Object.values(signatureOf(json).outputs).map((o) => o.name).sort();
}

// Runs the model (executeAsync: some models hold control flow) and returns {name: values}.
export async function run(model, feeds, names) {
  const result = await model.executeAsync(feeds, names);
  const list = Array.isArray(result) ? result : [result];
  const out = {};
  for (const [i, t] of list.entries()) {
    out[names[i]] = { dtype: t.dtype, shape: t.shape, values: t.dataSync().slice() };
    t.dispose();
  }
  return out;
}

export function disposeAll(map) {
  for (const t of Object.values(map)) t.dispose();
}

export function bytesOfValues(values) {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

// The op names that ops.pbtxt (TensorFlow's registry as text) defines.
export function registryOps(path) {
  const text = readFileSync(path, 'utf8');
  const ops = new Set();
  for (const m of text.matchAll(/^op \{\n {2}name: "([^"]+)"/gm)) ops.add(m[1]);
  return ops;
}
