// What a refused input turned out to be, when that is no family's model at all: the cause
// the core's message names (a Git LFS pointer, a Python pickle, a JSON file that is no TF.js
// model, a TF.js model without its weight files). These come before any family's own tips:
// a pickle is not "a TensorFlow protobuf that holds no graph", and a missing shard has
// nothing to do with SavedModel tags. Returns {title, tips} or null.
export function inputCause(error) {
  const message = error?.message ?? '';
  if (/git-LFS pointer/i.test(message)) {
    return {
      title: 'This is a Git LFS pointer, not the model',
      tips: [
        'The file holds the few lines of text (“version https://git-lfs.github.com/spec/v1”, an oid and a size) ' +
          'that Git LFS stands in place of the model: run `git lfs pull` in the repository, or download the ' +
          'file itself (on GitHub, “Download raw file”).',
      ],
    };
  }
  if (/Python pickle/.test(message)) {
    return {
      title: 'This is a Python pickle, not a model graph',
      tips: [
        'A pickle such as a state dict holds weights without the graph that computes with them, and ' +
          'graphport reads graphs.',
        'MegEngine: trace the model and write it with trace.dump(...) (or Network.dump), then open the .mge ' +
          'file. TensorFlow: tf.saved_model.save(...) writes a SavedModel folder to open here.',
      ],
    };
  }
  if (error?.code === 'UNKNOWN_FORMAT' && /JSON without modelTopology/.test(message)) {
    return {
      title: 'This JSON file is not a TensorFlow.js graph model',
      tips: [
        'A TF.js graph model’s model.json holds “modelTopology” and “weightsManifest”; this JSON has neither.',
        'Open the model.json that tensorflowjs_converter wrote, with the group1-shard…of….bin files beside ' +
          'it, or drop the model’s whole folder.',
      ],
    };
  }
  if (error?.code === 'NOT_FOUND' && /weight shard '.*' is missing/.test(message)) {
    return {
      title: 'The model’s weight files are missing',
      tips: [
        'A TF.js model is its model.json and the weight files its weightsManifest names (the shard in the ' +
          'details): choose them together under “Choose files…”, or drop the model’s whole folder.',
      ],
    };
  }
  return null;
}
