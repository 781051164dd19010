// Symbol names in loader messages: C++ names are demangled, since the
// mangled form says little to whoever wrote the source.
#include "emulator/loader/diagnostics.hpp"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace lanai::loader::detail {

std::string demangled(std::string_view name) {
  if (!name.starts_with("_Z"))
    return std::string(name);
  int status = 0;
  const std::string mangled(name);
  const std::unique_ptr<char, void (*)(void*)> text(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && text ? std::string(text.get()) : mangled;
}

std::string quoted_symbol(std::string_view name) {
  const std::string shown = printable(name);
  const std::string readable = demangled(name);
  if (readable == name)
    return fmt::format("'{}'", shown);
  return fmt::format("'{}' [{}]", printable(readable), shown);
}

} // namespace lanai::loader::detail
