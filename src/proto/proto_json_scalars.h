// Scalar values of the protobuf JSON mapping: a JSON number, string or bool read as one of
// protobuf's scalar types, with the range checks that keep a value from being truncated.
#ifndef GRAPHPORT_PROTO_PROTO_JSON_SCALARS_H_
#define GRAPHPORT_PROTO_PROTO_JSON_SCALARS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace graphport::proto {

// Each function stores the value in *out and returns an empty string, or leaves *out alone and
// returns why the value does not fit, for an error message ("expected an int32 ..., got 1.5").
// They are overloads by the type of *out, so that code generic in the type reads any of them.
//
// Integers: a JSON number with no fractional part (1e2 is 100; 1.5 is refused) or a decimal
// string with an optional sign ("-12", "+7", "007"); no exponent, no whitespace.
std::string JsonToScalar(const nlohmann::json& value, int32_t* out);
std::string JsonToScalar(const nlohmann::json& value, int64_t* out);
std::string JsonToScalar(const nlohmann::json& value, uint32_t* out);
std::string JsonToScalar(const nlohmann::json& value, uint64_t* out);
// Floating point: a JSON number, "NaN", "Infinity", "-Infinity", or a decimal number in a
// string. A float refuses a finite value beyond its range instead of making it infinite.
std::string JsonToScalar(const nlohmann::json& value, double* out);
std::string JsonToScalar(const nlohmann::json& value, float* out);
// true or false, or the strings "true" and "false".
std::string JsonToScalar(const nlohmann::json& value, bool* out);

// The same rules for a map key, which JSON always spells as a string.
std::string KeyToScalar(std::string_view key, int32_t* out);
std::string KeyToScalar(std::string_view key, int64_t* out);
std::string KeyToScalar(std::string_view key, uint32_t* out);
std::string KeyToScalar(std::string_view key, uint64_t* out);
std::string KeyToScalar(std::string_view key, bool* out);

// A JSON value as it appears in an error message, shortened when long.
std::string JsonForMessage(const nlohmann::json& value);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTO_JSON_SCALARS_H_
