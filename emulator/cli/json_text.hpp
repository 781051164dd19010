// Escaping text for the JSON the CLI prints.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace lanai::cli {

inline std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c >= 0x7F) out += fmt::format("\\u{:04x}", c);
      else out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

} // namespace lanai::cli
