// Formatting of loader error messages. Names come from untrusted files, so
// they are escaped to keep every message on one printable line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "emulator/loader/object_input.hpp"

namespace lanai::loader::detail {

// Escapes control and non-ASCII bytes as \xNN and caps very long names.
inline std::string printable(std::string_view text) {
  constexpr std::size_t max_length = 200;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max_length; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  if (text.size() > max_length)
    out += "...";
  return out;
}

// A symbol as messages show it: 'name', or for a C++ name the declaration
// it stands for and then the name itself, 'via::f(unsigned int)' [_ZN3via1fEj].
std::string quoted_symbol(std::string_view name);
// The declaration a C++ name stands for; any other name as it is.
std::string demangled(std::string_view name);

// Throws a LoadError "<object>: <message>".
template <typename... Args>
[[noreturn]] void fail(std::string_view object, fmt::format_string<Args...> format,
                       Args&&... args) {
  throw LoadError(
      fmt::format("{}: {}", printable(object), fmt::format(format, std::forward<Args>(args)...)));
}

} // namespace lanai::loader::detail
