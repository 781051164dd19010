// Bounded whole-file reads: the file's kind and size are checked before a
// byte is read.
#include "emulator/text/text_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <system_error>

namespace lanai::text {

TextFile read_text_file(const std::filesystem::path& file, std::string_view cannot_open) {
  const std::string name = file.string();
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status))
    return {{}, fmt::format("{}: {}", name, cannot_open)};
  if (!std::filesystem::is_regular_file(status))
    return {{},
            fmt::format("{}: not a regular file (a directory, device or pipe cannot be read "
                        "as input)",
                        name)};
  const std::uintmax_t bytes = std::filesystem::file_size(file, ec);
  if (ec)
    return {{}, fmt::format("{}: {}", name, cannot_open)};
  if (bytes > max_text_file_bytes)
    return {{},
            fmt::format("{}: {} bytes, more than the {} MiB an input file may have", name, bytes,
                        max_text_file_bytes >> 20)};
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return {{}, fmt::format("{}: {}", name, cannot_open)};
  TextFile read;
  read.text.resize(static_cast<std::size_t>(bytes));
  in.read(read.text.data(), static_cast<std::streamsize>(bytes));
  // A file that shrank meanwhile is read as far as it goes; one that grew
  // is read to the size checked.
  read.text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad())
    return {{}, fmt::format("{}: read error", name)};
  return read;
}

} // namespace lanai::text
