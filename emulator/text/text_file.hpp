// Reading a whole input file of text (a hardware profile, an experiment, a
// model, a frame-size trace, a target table) with bounds: only a regular
// file, and no larger than max_text_file_bytes, so that a path naming a
// device, a pipe or a huge file is an error naming it instead of a read
// that blocks or fills memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace lanai::text {

// Far more than any input the emulator reads (its largest, a frame-size
// trace, is a few hundred KB).
inline constexpr std::uintmax_t max_text_file_bytes = std::uintmax_t{16} << 20;

struct TextFile {
  std::string text;
  std::string error; // empty: read whole
};

// The file's bytes, or why not: "<file>: <cannot_open>" when it is missing
// or does not open, "<file>: not a regular file ...", "<file>: N bytes,
// more than ...", "<file>: read error".
TextFile read_text_file(const std::filesystem::path& file, std::string_view cannot_open);

// The same, throwing Error(message) for a file that cannot be read.
template <class Error>
std::string text_of_file(const std::filesystem::path& file, std::string_view cannot_open) {
  TextFile read = read_text_file(file, cannot_open);
  if (!read.error.empty())
    throw Error(read.error);
  return std::move(read.text);
}

} // namespace lanai::text
