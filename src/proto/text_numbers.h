// What protobuf text format makes of the numbers it reads, as libprotobuf 3.21 does it
// (io::Tokenizer::ParseInteger and ParseFloat, io::SafeDoubleToFloat), so that the same text
// gives the same bits.
#ifndef GRAPHPORT_PROTO_TEXT_NUMBERS_H_
#define GRAPHPORT_PROTO_TEXT_NUMBERS_H_

#include <cstdint>
#include <string>

namespace graphport::proto {

// An integer token as the tokenizer reads one ("123", "0x7B", "0173": decimal, hex, octal):
// false when it is above `max` (or is not one).
bool ParseTextInteger(const std::string& text, uint64_t max, uint64_t* out);

// A float token ("1.5", ".5e3", "2f") or a decimal integer too long for 64 bits, by strtod in
// the C locale's spelling whatever the process's locale (when strtod stops at the '.', the
// locale's radix character is tried in its place, as NoLocaleStrtod does).
double ParseTextFloat(const std::string& text);

// A double narrowed to a float field: past FLT_MAX it is infinity, except up to FLT_MAX as
// printed with 8 digits (3.4028235e+38), which is FLT_MAX.
float TextDoubleToFloat(double value);

// "0x1F" and "017": the integers a float field does not take.
bool IsHexOrOctalText(const std::string& text);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_TEXT_NUMBERS_H_
