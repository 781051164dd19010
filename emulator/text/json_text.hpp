// Quoting text as a JSON string, for every JSON file and line the project
// writes: quotes, backslashes and control characters are escaped; bytes
// from 0x80 pass through (UTF-8 text) unless `ascii_only` asks for them as
// \u00XX too (raw bytes of unknown encoding, e.g. a firmware console).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace lanai::text {

inline std::string json_string(std::string_view s, bool ascii_only = false) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7F || (ascii_only && c >= 0x80))
        out += fmt::format("\\u{:04x}", c);
      else
        out += ch;
    }
  }
  return out + "\"";
}

} // namespace lanai::text
