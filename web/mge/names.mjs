// The names MegEngine's people use for the formats the core calls mge-fbs, mge-fbs-v2 and
// mge-test.
const FORMAT_TITLES = {
  'mge-fbs': 'MegEngine FBS',
  'mge-fbs-v2': 'MegEngine FBS_V2',
  'mge-test': 'mgbtest0 container',
  FBS: 'MegEngine FBS',
  FBS_V2: 'MegEngine FBS_V2',
};

export function formatTitle(format) {
  return FORMAT_TITLES[format] ?? format;
}
