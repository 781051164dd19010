// Objects are read once and cached: the robustness tests link them thousands of times.

#include "tests/loader/test_support.hpp"

#include <map>
#include <string>

#include <doctest/doctest.h>

namespace lanai::loader::test {

const ObjectInput& test_object(std::string_view name) {
  static std::map<std::string, ObjectInput, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    constexpr std::string_view small = "small/";
    const std::string path =
        name.starts_with(small)
            ? std::string(LANAI_LOADER_SMALL_MODEL_OBJECTS) + "/" +
                  std::string(name.substr(small.size())) + ".o"
            : std::string(LANAI_LOADER_TEST_OBJECTS) + "/" + std::string(name) + ".o";
    it = cache.emplace(std::string(name), read_object_file(path)).first;
  }
  return it->second;
}

std::vector<ObjectInput> objects(std::initializer_list<std::string_view> names) {
  std::vector<ObjectInput> out;
  for (const std::string_view name : names)
    out.push_back(test_object(name));
  return out;
}

std::string link_error(const std::vector<ObjectInput>& inputs, const LinkOptions& options) {
  try {
    (void)link(inputs, options);
  } catch (const LoadError& error) {
    const std::string message = error.what();
    CHECK_MESSAGE(message.find('\n') == std::string::npos, "multi-line message: " << message);
    return message;
  }
  FAIL("link succeeded where an error was expected");
  return {};
}

std::uint32_t image_word(const LinkedImage& image, std::uint32_t address) {
  REQUIRE(address >= image.base);
  return get32(image.bytes, address - image.base);
}

std::optional<std::uint32_t> section_address(const LinkedImage& image, const ObjectView& view,
                                             std::uint32_t section) {
  // Strong symbols first: a weak one may have lost to another object's definition.
  for (const unsigned wanted : {1u, 2u}) {
    for (const ViewSymbol& s : view.symbols()) {
      if (s.shndx != section || (s.info >> 4) != wanted || s.name.empty())
        continue;
      if (const auto address = image.find_symbol(s.name))
        return *address - s.value;
    }
  }
  return std::nullopt;
}

std::uint32_t field_mask(std::uint32_t type) {
  switch (type) {
  case 1:
    return 0x007CFFFF;
  case 2:
    return 0x007CFFFC;
  case 3:
    return 0x01FFFFFC;
  case 4:
    return 0xFFFFFFFF;
  case 5:
  case 6:
    return 0x0000FFFF;
  default:
    return 0;
  }
}

std::uint32_t decode_field(std::uint32_t type, std::uint32_t word) {
  switch (type) {
  case 1:
  case 2: {
    std::uint32_t v = (word & 0xffff) | (((word >> 18) & 0x1f) << 16);
    if ((v & 0x100000) != 0)
      v |= 0xFFE00000; // sign-extend the 21-bit value
    return type == 2 ? v & ~3u : v;
  }
  case 3:
    return word & 0x01FFFFFC;
  case 4:
    return word;
  case 5:
  case 6:
    return word & 0xffff;
  default:
    return 0;
  }
}

} // namespace lanai::loader::test
