// tfjs-converter's weight quantization (quantization.py), and its choice of weights by name
// pattern (fnmatch).
#ifndef GRAPHPORT_TFJS_QUANTIZE_H_
#define GRAPHPORT_TFJS_QUANTIZE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace graphport::tfjs {

struct AffineQuantized {
  std::vector<uint16_t> codes;
  double scale = 1;
  double min = 0;  // the nudged minimum: what the manifest's "min" holds
};

// uint8 (qmax 255) or uint16 (qmax 65535) affine quantization, in float64 (NumPy 2's
// promotion rules; NumPy 1.x computed the codes in float32 and may differ by one code):
// scale = (max - min) / qmax; when 0 lies in [min, max] the range is nudged so that 0 is a
// code exactly; codes = round_half_even((clip(x) - nudged_min) / scale). All values equal:
// codes 0, scale 1, min the value. `values` must be non-empty and finite.
AffineQuantized QuantizeAffine(const float* values, size_t count, uint32_t qmax);

// Python's fnmatch.fnmatchcase: '*' any run (including '/'), '?' one character, '[...]' a
// class ('!' negates, 'a-z' ranges); everything else literal.
bool FnMatch(const std::string& pattern, const std::string& name);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_QUANTIZE_H_
