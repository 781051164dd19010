// C++ objects: duplicate COMDAT groups (inline functions, templates, their
// static locals) keep one copy, and static constructors form one init array.

#include <doctest/doctest.h>

#include "tests/loader/test_support.hpp"

namespace lanai::loader::test {
namespace {

// Every HI16 or LO16 field referring to `symbol` in an object's .text.
std::vector<std::uint32_t> address_halves(const LinkedImage& image, std::string_view object,
                                          std::string_view symbol, std::uint32_t type) {
  const ObjectView view(test_object(object).data);
  const std::uint32_t text = *view.section_index(".text");
  const auto base = section_address(image, view, text);
  REQUIRE(base);
  std::vector<std::uint32_t> out;
  for (const ViewRela& r : view.relocations_for(text)) {
    if (r.type == type && view.symbols()[r.symbol].name == symbol) {
      out.push_back(image_word(image, *base + r.offset) & 0xffff);
    }
  }
  return out;
}

std::uint32_t section_size(std::string_view object, std::string_view section) {
  const ObjectView view(test_object(object).data);
  return view.sections()[*view.section_index(section)].size;
}

} // namespace

TEST_CASE("duplicate COMDAT groups keep only the first copy") {
  const LinkedImage image = link(objects({"cxx_a", "cxx_b"}), {});
  const auto twice = image.find_symbol("_Z5twiceIiET_S0_");
  REQUIRE(twice);

  // The kept copy is cxx_a's, placed right after cxx_a's .text; both
  // objects call it.
  CHECK(*twice == image.text_begin + section_size("cxx_a", ".text"));
  for (const char* object : {"cxx_a", "cxx_b"}) {
    CAPTURE(object);
    const ObjectView view(test_object(object).data);
    const std::uint32_t text = *view.section_index(".text");
    const std::uint32_t base = *section_address(image, view, text);
    int calls = 0;
    for (const ViewRela& r : view.relocations_for(text)) {
      if (r.type != 3 || view.symbols()[r.symbol].name != "_Z5twiceIiET_S0_")
        continue;
      CHECK((image_word(image, base + r.offset) & 0x01FFFFFC) == *twice);
      ++calls;
    }
    CHECK(calls > 0);
  }

  // The second copy of the code is dropped: text holds one instance only.
  const std::uint32_t expected_text = section_size("cxx_a", ".text") +
                                      section_size("cxx_a", ".text._Z5twiceIiET_S0_") +
                                      section_size("cxx_b", ".text");
  CHECK(image.text_end - image.text_begin == expected_text);

  // Both objects share one static local of the inline function.
  const std::string_view counter = "_ZZ14shared_countervE1n";
  const std::uint32_t n = *image.find_symbol(counter);
  CHECK(n >= image.bss_begin);
  CHECK(n < image.bss_end);
  for (const char* object : {"cxx_a", "cxx_b"}) {
    CAPTURE(object);
    const auto hi = address_halves(image, object, counter, 5);
    const auto lo = address_halves(image, object, counter, 6);
    REQUIRE(!hi.empty());
    REQUIRE(!lo.empty());
    for (const std::uint32_t h : hi)
      CHECK(h == n >> 16);
    for (const std::uint32_t l : lo)
      CHECK(l == (n & 0xffff));
  }
}

TEST_CASE("static constructors form one init array ordered by priority") {
  const LinkedImage image = link(objects({"cxx_a", "cxx_b"}), {});
  const std::uint32_t begin = *image.find_symbol("__init_array_start");
  const std::uint32_t end = *image.find_symbol("__init_array_end");
  REQUIRE(end - begin == 12);
  CHECK(begin % 4 == 0);
  CHECK(begin >= image.text_end);
  CHECK(end <= image.bss_begin);

  std::vector<std::string> names;
  for (std::uint32_t at = begin; at < end; at += 4) {
    const std::uint32_t constructor = image_word(image, at);
    CHECK(constructor >= image.text_begin);
    CHECK(constructor < image.text_end);
    const auto name = image.symbol_at(constructor);
    REQUIRE(name);
    names.push_back(*name);
  }
  // Priority 200 first, then the default priority in object order.
  CHECK(names == std::vector<std::string>{"_GLOBAL__I_000200", "_GLOBAL__sub_I_cxx_a.cpp",
                                          "_GLOBAL__sub_I_cxx_b.cpp"});
}

TEST_CASE("a COMDAT signature seen first in the second object wins there") {
  const LinkedImage image = link(objects({"cxx_b", "cxx_a"}), {});
  const std::uint32_t b_copy = image.text_begin + section_size("cxx_b", ".text");
  CHECK(image.find_symbol("_Z5twiceIiET_S0_") == b_copy);
  CHECK(image.symbol_at(b_copy) == "_Z5twiceIiET_S0_");
}

} // namespace lanai::loader::test
