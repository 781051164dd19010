// Table sections: a section named like a C identifier ("lanai_counters")
// is kept together and bracketed by __start_<name> and __stop_<name>, as
// ELF linkers do; the firmware counters registry is one.
#include <string>

#include <doctest/doctest.h>

#include "emulator/loader/section_layout.hpp"
#include "tests/loader/test_support.hpp"

namespace {

using namespace lanai::loader;
using namespace lanai::loader::test;

std::string string_at(const LinkedImage& image, std::uint32_t address) {
  std::string s;
  for (std::uint32_t a = address; a < image.image_end && image.bytes[a - image.base] != 0; ++a)
    s += static_cast<char>(image.bytes[a - image.base]);
  return s;
}

} // namespace

TEST_CASE("table sections are those named like C identifiers") {
  CHECK(is_table_section("lanai_counters"));
  CHECK(is_table_section("_x1"));
  CHECK_FALSE(is_table_section(".rodata"));
  CHECK_FALSE(is_table_section("1st"));
  CHECK_FALSE(is_table_section("a-b"));
  CHECK_FALSE(is_table_section(""));
}

TEST_CASE("the counter table is bracketed and holds each counter's name and address") {
  const LinkedImage image = link(objects({"counter_table"}), {});
  const auto begin = image.find_symbol("__start_lanai_counters");
  const auto end = image.find_symbol("__stop_lanai_counters");
  REQUIRE(begin.has_value());
  REQUIRE(end.has_value());
  REQUIRE(*end - *begin == 2 * sizeof(std::uint32_t) * 2);
  CHECK(*begin % 4 == 0);
  CHECK(string_at(image, image_word(image, *begin)) == "probe_first");
  CHECK(image_word(image, *begin + 4) == *image.find_symbol("probe_first"));
  CHECK(string_at(image, image_word(image, *begin + 8)) == "probe_second");
  CHECK(image_word(image, *begin + 12) == *image.find_symbol("probe_second"));
  // The table lies outside .bss: start-up code must not clear it.
  CHECK((*end <= image.bss_begin || *begin >= image.bss_end));
}

TEST_CASE("an image without tables has no table symbols") {
  const LinkedImage image = link(objects({"main_unit", "helper_unit"}), {});
  CHECK_FALSE(image.find_symbol("__start_lanai_counters").has_value());
}
