// node example.mjs saved_model.pb out/
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import createGraphport, { GraphportError } from 'graphport';

const [input, outDir = 'out'] = process.argv.slice(2);
const gp = await createGraphport();

try {
  const model = gp.loadFile(input);            // streams the file in; gp.load(bytes) takes bytes
  try {
    const { format, nodeCount, producer } = model.inspect();
    console.log(`${input}: ${format}, ${nodeCount} nodes, TensorFlow ${producer.tensorflowVersion ?? '?'}`);

    const { files } = model.export({ to: 'meta-graph', asText: true, clearDevices: true });
    mkdirSync(outDir, { recursive: true });
    for (const { name, bytes } of files) {
      writeFileSync(join(outDir, name), bytes);
      console.log(`wrote ${join(outDir, name)}`);
    }
  } finally {
    model.delete();                            // frees the model's WebAssembly memory
  }
} catch (e) {
  if (!(e instanceof GraphportError)) throw e;
  console.error(`error ${e.code}: ${e.message}`);   // e.g. PARSE_ERROR, with the byte offset
  process.exitCode = 1;
}
