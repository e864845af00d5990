// MegEngine models built for the tests (FBS_V2, with tests/js/mge_flatbuffer.mjs), of
// ImmutableTensor operators registered as a corpus file re-dumped as FBS_V2 registers them.
import { join } from 'node:path';

import { mgeModelV2 } from './mge_flatbuffer.mjs';

// ImmutableTensor's {type, typeId, oprVersion}, from the corpus re-dump's inspect().
export function immutableTensorRegistration(gp, readBytes, corpus) {
  const bytes = readBytes(join(corpus, 'mge', 'mgeconvert_e4a1261_test_test_model.mge'));
  const model = gp.load(bytes, { name: 'model.mge' });
  try {
    const v2 = model.export({ dumpFormat: 'FBS_V2', asLoaded: true }).files[0].bytes;
    const again = gp.load(v2, { name: 'v2.mge' });
    try {
      const op = again.inspect().megengine.operators.find((o) => o.class === 'ImmutableTensor');
      if (!op) throw new Error('the corpus re-dump has no ImmutableTensor');
      return { type: op.type, typeId: op.typeId, oprVersion: op.oprVersion };
    } finally {
      again.delete();
    }
  } finally {
    model.delete();
  }
}

// A model longer than a summary lists (inspect() holds the first 100 operators): `count`
// operators named holder0, holder1, ..., each holding four floats.
export function longMgeModel(holder, count) {
  const tensors = Array.from({ length: count }, (_, i) => ({
    name: `w${i}`, shape: [4], bytes: 16, fill: (k) => (k + i) & 0xff,
  }));
  return mgeModelV2(holder, tensors);
}
