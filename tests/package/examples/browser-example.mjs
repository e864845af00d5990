import createGraphport, { GraphportError } from 'graphport';

const picker = document.querySelector('#model');
const output = document.querySelector('#output');

picker.addEventListener('change', async () => {
  output.replaceChildren();
  const file = picker.files[0];
  try {
    const gp = await createGraphport();        // fetches and compiles the .wasm once
    const model = gp.load(new Uint8Array(await file.arrayBuffer()), { name: file.name });
    try {
      const { format, nodeCount } = model.inspect();
      output.append(`${file.name}: ${format}, ${nodeCount} nodes. `);
      for (const { name, bytes } of model.export({ asText: true }).files) {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(new Blob([bytes]));
        link.download = name;
        link.textContent = `Download ${name}`;
        output.append(link);
      }
    } finally {
      model.delete();
    }
  } catch (e) {
    output.append(e instanceof GraphportError ? `${e.code}: ${e.message}` : String(e));
  }
});
