// Helpers shared by the loader tests: the Lanai objects compiled at build
// time, and small utilities to link them and read words back from images.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/loader/firmware_linker.hpp"
#include "tests/loader/object_view.hpp"

namespace lanai::loader::test {

// The object compiled from tests/loader/firmware/<name>.{c,cpp,S}; a name
// "small/<name>" gives one compiled as the VIA firmware is (small code model).
const ObjectInput& test_object(std::string_view name);

std::vector<ObjectInput> objects(std::initializer_list<std::string_view> names);

// The LoadError message of a failed link; the test fails if the link succeeds.
std::string link_error(const std::vector<ObjectInput>& inputs, const LinkOptions& options = {});

// Big-endian word of the image at an absolute address.
std::uint32_t image_word(const LinkedImage& image, std::uint32_t address);

// Address of section `section` of an object in the image, deduced from a
// strong (or else weak) global symbol defined in it; nullopt if it has none.
std::optional<std::uint32_t> section_address(const LinkedImage& image, const ObjectView& view,
                                             std::uint32_t section);

// Bits of the word that a relocation of this type rewrites.
std::uint32_t field_mask(std::uint32_t type);

// What a relocated field holds, decoded from a patched word (for HI16 and
// LO16: the 16 bits of the half they carry).
std::uint32_t decode_field(std::uint32_t type, std::uint32_t word);

} // namespace lanai::loader::test
