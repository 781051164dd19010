// Reading and writing a firmware folder's manifests: parts.txt (the parts)
// and objects.txt (the objects the loader links, in order).
#include "emulator/loader/firmware_parts.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "emulator/loader/diagnostics.hpp"
#include "emulator/loader/object_input.hpp"

namespace lanai::loader {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void parts_error(const fs::path& file, std::size_t line, std::string_view what) {
  throw LoadError(fmt::format("{}:{}: {}", detail::printable(file.string()), line, what));
}

} // namespace

std::vector<FirmwarePart> read_parts(const fs::path& folder) {
  const fs::path file = folder / "parts.txt";
  std::ifstream in(file);
  std::vector<FirmwarePart> parts;
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    std::istringstream words(text);
    FirmwarePart part;
    if (!(words >> part.name) || part.name.front() == '#')
      continue;
    for (std::string object; words >> object;) {
      for (const FirmwarePart& other : parts)
        if (std::find(other.objects.begin(), other.objects.end(), object) != other.objects.end())
          parts_error(
              file, number,
              fmt::format("{} is already in part {}", detail::printable(object), other.name));
      if (std::find(part.objects.begin(), part.objects.end(), object) != part.objects.end())
        parts_error(file, number, fmt::format("{} is listed twice", detail::printable(object)));
      part.objects.push_back(object);
    }
    if (part.objects.empty())
      parts_error(file, number,
                  fmt::format("part {} lists no objects", detail::printable(part.name)));
    for (const FirmwarePart& other : parts)
      if (other.name == part.name)
        parts_error(file, number,
                    fmt::format("part {} is listed twice", detail::printable(part.name)));
    parts.push_back(std::move(part));
  }
  return parts;
}

bool has_part(const fs::path& folder, std::string_view name) {
  const auto parts = read_parts(folder);
  return std::any_of(parts.begin(), parts.end(),
                     [&](const FirmwarePart& p) { return p.name == name; });
}

void write_manifests(const fs::path& folder, const std::vector<FirmwarePart>& parts,
                     const std::string& comment) {
  std::string objects;
  std::string lines = "# " + comment + "\n";
  for (const FirmwarePart& part : parts) {
    lines += part.name;
    for (const std::string& object : part.objects) {
      objects += object + "\n";
      lines += " " + object;
    }
    lines += "\n";
  }
  for (const auto& [name, text] :
       {std::pair{"objects.txt", &objects}, std::pair{"parts.txt", &lines}}) {
    std::ofstream out(folder / name, std::ios::binary | std::ios::trunc);
    out << *text;
    if (!out)
      throw LoadError(fmt::format("{}: cannot write", detail::printable((folder / name).string())));
  }
}

} // namespace lanai::loader
