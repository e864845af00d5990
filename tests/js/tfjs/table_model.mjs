// A TF.js graph model with a hash table, built here as tfjs-converter writes a TF1 SavedModel
// with one: the table's init op (keys a, b, c to 1, 2, 3) in modelInitializer, the lookup
// (default -1) in modelTopology; both graphs hold the HashTableV2 node, which TF.js shares
// by name. tableModelFiles({tf2: true}) is the TF2 form (converter v3.21+): the model's graph
// takes the table's handle as a resource input "unknown", which TF.js feeds from the
// initializer's output "Identity:0" of the same resourceId.

const attr = (type) => ({ type });

function hashTable() {
  return {
    name: 'hash_table',
    op: 'HashTableV2',
    attr: { key_dtype: attr('DT_STRING'), value_dtype: attr('DT_INT32'), shared_name: { s: '' } },
  };
}

function constNode(name, dtype, shape) {
  const tensorShape = shape.length ? { dim: shape.map((d) => ({ size: String(d) })) } : {};
  return { name, op: 'Const', attr: { dtype: attr(dtype), value: { tensor: { dtype, tensorShape } } } };
}

function int32Bytes(values) {
  return new Uint8Array(new Int32Array(values).buffer);
}

function stringBytes(values) {
  const parts = [];
  for (const v of values) {
    const bytes = new TextEncoder().encode(v);
    parts.push(new Uint8Array(new Uint32Array([bytes.length]).buffer), bytes);
  }
  return concat(parts);
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const TABLE_KEYS = ['a', 'b', 'c'];

export function tableModelFiles({ tf2 = false } = {}) {
  const json = {
    format: 'graph-model',
    generatedBy: '1.15.0',
    convertedBy: 'TensorFlow.js Converter v4.22.0',
    signature: {
      inputs: { input: { name: 'input:0', dtype: 'DT_STRING', tensorShape: { dim: [{ size: '-1' }] } } },
      outputs: { output: { name: 'output:0', dtype: 'DT_INT32' } },
    },
    modelTopology: {
      node: [
        { name: 'input', op: 'Placeholder', attr: { dtype: attr('DT_STRING'), shape: { shape: { dim: [{ size: '-1' }] } } } },
        hashTable(),
        constNode('default', 'DT_INT32', []),
        {
          name: 'lookup', op: 'LookupTableFindV2', input: ['hash_table', 'input', 'default'],
          attr: { Tin: attr('DT_STRING'), Tout: attr('DT_INT32') },
        },
        { name: 'output', op: 'Identity', input: ['lookup'], attr: { T: attr('DT_INT32') } },
      ],
      library: {},
      versions: { producer: 1286 },
    },
    modelInitializer: {
      node: [
        hashTable(),
        constNode('keys', 'DT_STRING', [3]),
        constNode('values', 'DT_INT32', [3]),
        {
          name: 'key_value_init', op: 'LookupTableImportV2', input: ['hash_table', 'keys', 'values'],
          attr: { Tin: attr('DT_STRING'), Tout: attr('DT_INT32') },
        },
      ],
      versions: { producer: 1286 },
    },
    weightsManifest: [{
      paths: ['group1-shard1of1.bin'],
      weights: [
        { name: 'default', shape: [], dtype: 'int32' },
        { name: 'keys', shape: [3], dtype: 'string' },
        { name: 'values', shape: [3], dtype: 'int32' },
      ],
    }],
  };
  if (tf2) {
    const nodes = json.modelTopology.node;
    nodes[1] = { name: 'unknown', op: 'Placeholder', attr: { dtype: attr('DT_RESOURCE'), shape: { shape: {} } } };
    nodes[3].input[0] = 'unknown';
    nodes[4].name = 'Identity';
    json.signature.inputs.unknown = { name: 'unknown:0', dtype: 'DT_RESOURCE', tensorShape: {}, resourceId: 42 };
    json.signature.outputs = { output: { name: 'Identity:0', dtype: 'DT_INT32' } };
    // tf.function's automatic control dependencies: the handle is returned after the import.
    json.modelInitializer.node.push({
      name: 'Identity', op: 'Identity', input: ['hash_table', '^key_value_init'], attr: { T: attr('DT_RESOURCE') },
    });
    json.initializerSignature = {
      outputs: { 'Identity:0': { name: 'Identity:0', dtype: 'DT_RESOURCE', tensorShape: {}, resourceId: 42 } },
    };
  }
  const shard = concat([int32Bytes([-1]), stringBytes(TABLE_KEYS), int32Bytes([1, 2, 3])]);
  return {
    'model.json': new TextEncoder().encode(JSON.stringify(json)),
    'group1-shard1of1.bin': shard,
  };
}
