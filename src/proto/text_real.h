// Floats and doubles as protobuf's text printer writes them (SimpleFtoa / SimpleDtoa):
// "%.*g" with FLT_DIG (DBL_DIG) significant digits when that reads back as the same value,
// else with FLT_DIG + 3 (DBL_DIG + 2); "nan" without a sign, "inf", "-inf", "-0".
// snprintf and strtod are slow, in WebAssembly most of all (its libc formats through software
// long doubles), and a graph's constants print thousands of floats: most floats are rounded
// here with exact integer arithmetic instead, giving the same characters.
#ifndef GRAPHPORT_PROTO_TEXT_REAL_H_
#define GRAPHPORT_PROTO_TEXT_REAL_H_

#include <cstring>

namespace graphport::proto {

// The longest text either writes: "-1.7976931348623157e+308".
inline constexpr int kMaxRealChars = 32;

// Write at `w` (kMaxRealChars of room); return the end of the text.
char* WriteTextFloat(float value, char* w);
char* WriteTextDouble(double value, char* w);

// The same through snprintf and strtof/strtod only, as SimpleFtoa does: what the fast path
// is tested against.
char* WriteTextFloatBySnprintf(float value, char* w);

// Writes `text` ("nan", "-inf", "true") at `w`, with room for it; returns the end. For the
// printers that fill a buffer sized for their longest value.
inline char* WriteLiteral(const char* text, char* w) {
  const size_t n = std::strlen(text);
  std::memcpy(w, text, n);
  return w + n;
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_REAL_H_
