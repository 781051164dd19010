// Inputs of the firmware loader: relocatable Lanai objects as raw bytes, and
// the single error type every loading problem is reported with.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace lanai::loader {

// One line of text naming the offending file and, where it helps, the
// symbol, section and offset involved.
class LoadError : public std::runtime_error {
public:
  using runtime_error::runtime_error;
};

// An object file held in memory; `name` is used in error messages.
struct ObjectInput {
  std::string name;
  std::vector<std::uint8_t> data;
};

// Reads a whole file; throws LoadError if it cannot be read.
ObjectInput read_object_file(const std::filesystem::path& path);

} // namespace lanai::loader
