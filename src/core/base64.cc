#include "core/base64.h"

#include <cstdint>

namespace graphport {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Like Value(), for the URL-safe alphabet of RFC 4648 section 5.
int UrlSafeValue(char c) {
  if (c == '-') return 62;
  if (c == '_') return 63;
  if (c == '+' || c == '/') return -1;
  return Value(c);
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kAlphabet[n & 63] : '=');
  }
  return out;
}

bool Base64Decode(std::string_view text, std::string* bytes) {
  if (text.size() % 4 != 0) return false;
  bytes->clear();
  bytes->reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    for (int k = 0; k < 4; ++k) {
      bool padding = text[i + k] == '=' && i + 4 == text.size() && k >= 2;
      v[k] = padding ? 0 : Value(text[i + k]);
      if (v[k] < 0) return false;
    }
    if (text[i + 2] == '=' && text[i + 3] != '=') return false;
    uint32_t n = (v[0] << 18) | (v[1] << 12) | (v[2] << 6) | v[3];
    bytes->push_back(static_cast<char>(n >> 16));
    if (text[i + 2] != '=') bytes->push_back(static_cast<char>((n >> 8) & 0xFF));
    if (text[i + 3] != '=') bytes->push_back(static_cast<char>(n & 0xFF));
  }
  return true;
}

bool Base64DecodeEitherAlphabet(std::string_view text, std::string* bytes) {
  // Padding is optional, so strip it and check it would have been exactly what is missing.
  size_t data = text.size();
  while (data > 0 && text[data - 1] == '=') --data;
  size_t padding = text.size() - data;
  if (data % 4 == 1 || padding > 2 || (padding != 0 && (data + padding) % 4 != 0)) return false;
  // The alphabet is the one of the first character that tells them apart.
  bool url_safe = text.substr(0, data).find_first_of("-_") != std::string_view::npos;
  bytes->clear();
  bytes->reserve(data / 4 * 3 + 2);
  uint32_t bits = 0;
  int bit_count = 0;
  for (size_t i = 0; i < data; ++i) {
    int v = url_safe ? UrlSafeValue(text[i]) : Value(text[i]);
    if (v < 0) return false;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      bytes->push_back(static_cast<char>((bits >> bit_count) & 0xFF));
    }
  }
  // A last group of 2 or 3 characters carries 4 or 2 bits that no byte uses.
  return (bits & ((1u << bit_count) - 1)) == 0;
}

}  // namespace graphport
