// Successful links: every relocated field is checked against the symbol
// addresses, and the layout keeps code first and zero-filled data last.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/loader/test_support.hpp"

namespace lanai::loader::test {
namespace {

// Address a relocation's symbol should have received, if the test can work
// it out from the image's symbols alone.
std::optional<std::uint32_t> expected_symbol(const LinkedImage& image, const ObjectView& view,
                                             const ViewRela& r) {
  const ViewSymbol& sym = view.symbols().at(r.symbol);
  const unsigned binding = sym.info >> 4;
  if (binding != 0) {
    if (const auto address = image.find_symbol(sym.name))
      return address;
    if (binding == 2 && sym.shndx == 0)
      return 0u; // undefined weak
    return std::nullopt;
  }
  if (sym.shndx == 0 || sym.shndx >= 0xff00)
    return std::nullopt;
  if (const auto base = section_address(image, view, sym.shndx))
    return *base + sym.value;
  return std::nullopt;
}

// Checks every relocation of an object's allocated sections whose target the
// test can compute; returns how many were checked.
int verify_relocations(const LinkedImage& image, std::string_view name) {
  const ObjectView view(test_object(name).data);
  int verified = 0;
  for (std::uint32_t i = 0; i < view.sections().size(); ++i) {
    if ((view.sections()[i].flags & 2) == 0)
      continue; // SHF_ALLOC
    const auto relocations = view.relocations_for(i);
    if (relocations.empty())
      continue;
    const auto base = section_address(image, view, i);
    if (!base)
      continue;
    for (const ViewRela& r : relocations) {
      const auto symbol = expected_symbol(image, view, r);
      if (!symbol)
        continue;
      const std::uint32_t value = *symbol + static_cast<std::uint32_t>(r.addend);
      const std::uint32_t word = image_word(image, *base + r.offset);
      const std::uint32_t original = view.word_at(i, r.offset);
      INFO(name, " ", view.sections()[i].name, "+", r.offset, " type ", r.type, " symbol ",
           view.symbols()[r.symbol].name);
      CHECK((word & ~field_mask(r.type)) == (original & ~field_mask(r.type)));
      const std::uint32_t expected = r.type == 5   ? value >> 16
                                     : r.type == 6 ? value & 0xffff
                                                   : value;
      CHECK(decode_field(r.type, word) == expected);
      ++verified;
    }
  }
  return verified;
}

// Every HI16/LO16 pair for `symbol` in an object's .text rebuilds its address.
void check_hi_lo(const LinkedImage& image, std::string_view object, std::string_view symbol) {
  const ObjectView view(test_object(object).data);
  const std::uint32_t text = *view.section_index(".text");
  const std::uint32_t base = *section_address(image, view, text);
  const std::uint32_t target = *image.find_symbol(symbol);
  int pairs = 0;
  for (const ViewRela& hi : view.relocations_for(text)) {
    if (hi.type != 5 || view.symbols()[hi.symbol].name != symbol)
      continue;
    for (const ViewRela& lo : view.relocations_for(text)) {
      if (lo.type != 6 || lo.offset != hi.offset + 4)
        continue;
      const std::uint32_t rebuilt = (image_word(image, base + hi.offset) << 16) |
                                    (image_word(image, base + lo.offset) & 0xffff);
      CHECK(rebuilt == target);
      ++pairs;
    }
  }
  CHECK(pairs > 0);
}

// The R_LANAI_25 target field of the branch to `callee` from `object`'s .text.
std::vector<std::uint32_t> branch_targets(const LinkedImage& image, std::string_view object,
                                          std::string_view callee) {
  const ObjectView view(test_object(object).data);
  std::vector<std::uint32_t> targets;
  for (std::uint32_t i = 0; i < view.sections().size(); ++i) {
    if ((view.sections()[i].flags & 4) == 0)
      continue; // SHF_EXECINSTR
    const auto base = section_address(image, view, i);
    for (const ViewRela& r : view.relocations_for(i)) {
      if (r.type != 3 || view.symbols()[r.symbol].name != callee)
        continue;
      REQUIRE(base);
      targets.push_back(image_word(image, *base + r.offset) & 0x01FFFFFC);
    }
  }
  return targets;
}

} // namespace

TEST_CASE("two objects calling each other link with every relocation applied") {
  const auto inputs = objects({"main_unit", "helper_unit"});
  for (const std::uint32_t base : {0u, 0x1000u}) {
    CAPTURE(base);
    const LinkedImage image = link(inputs, LinkOptions{.base = base});
    CHECK(verify_relocations(image, "main_unit") >= 25);
    CHECK(verify_relocations(image, "helper_unit") >= 9);

    CHECK(branch_targets(image, "main_unit", "add_values") ==
          std::vector{*image.find_symbol("add_values")});
    CHECK(branch_targets(image, "helper_unit", "main_callback") ==
          std::vector{*image.find_symbol("main_callback")});
    check_hi_lo(image, "main_unit", "shared_total");
    check_hi_lo(image, "helper_unit", "shared_total");
    check_hi_lo(image, "main_unit", "aligned_buffer");
    check_hi_lo(image, "helper_unit", "helper_scratch");

    // The constant table of function pointers holds the three functions.
    const std::uint32_t dispatch = *image.find_symbol("dispatch");
    CHECK(image_word(image, dispatch) == *image.find_symbol("add_values"));
    CHECK(image_word(image, dispatch + 4) == *image.find_symbol("sub_values"));
    CHECK(image_word(image, dispatch + 8) == *image.find_symbol("mul_values"));

    // greeting points at its string, laid out among the read-only data.
    const std::uint32_t text = image_word(image, *image.find_symbol("greeting"));
    REQUIRE(text >= image.text_end);
    REQUIRE(text + 13 <= image.image_end);
    const std::string copied(image.bytes.begin() + (text - base),
                             image.bytes.begin() + (text - base) + 12);
    CHECK(copied == "hello, lanai");
    CHECK(image_word(image, *image.find_symbol("shared_total")) == 42);
  }
}

TEST_CASE("layout puts code first, then data, then zeroed bss") {
  const auto inputs = objects({"main_unit", "helper_unit"});
  const LinkOptions options{.base = 0x400};
  const LinkedImage image = link(inputs, options);

  CHECK(image.base == 0x400);
  CHECK(image.text_begin == 0x400);
  CHECK(image.entry == *image.find_symbol("_start"));
  CHECK(image.image_end == image.base + image.bytes.size());
  CHECK(image.stack_top == options.sram_bytes);
  CHECK(image.bss_end == image.image_end);
  CHECK(image.text_begin < image.text_end);
  CHECK(image.text_end <= image.bss_begin);

  for (const char* function :
       {"_start", "main_callback", "run_dispatch", "add_values", "sub_values", "mul_values"}) {
    CAPTURE(function);
    const std::uint32_t address = *image.find_symbol(function);
    CHECK(address >= image.text_begin);
    CHECK(address < image.text_end);
    CHECK(address % 4 == 0);
  }
  // main_unit's code precedes helper_unit's: objects keep their order.
  CHECK(*image.find_symbol("_start") < *image.find_symbol("add_values"));
  // Read-only data precedes writable data, which precedes bss.
  const std::uint32_t dispatch = *image.find_symbol("dispatch");
  const std::uint32_t shared_total = *image.find_symbol("shared_total");
  CHECK(dispatch >= image.text_end);
  CHECK(dispatch < *image.find_symbol("greeting"));
  CHECK(dispatch < shared_total);
  CHECK(shared_total + 4 <= image.bss_begin);
  CHECK(*image.find_symbol("greeting") + 4 <= image.bss_begin);
  for (const char* variable : {"counter", "main_result", "aligned_buffer", "helper_scratch"}) {
    CAPTURE(variable);
    const std::uint32_t address = *image.find_symbol(variable);
    CHECK(address >= image.bss_begin);
    CHECK(address < image.bss_end);
  }
  CHECK(*image.find_symbol("aligned_buffer") % 64 == 0);
  for (std::uint32_t a = image.bss_begin; a < image.bss_end; ++a) {
    REQUIRE(image.bytes[a - image.base] == 0);
  }
}

TEST_CASE("linker-defined symbols describe the layout") {
  const LinkOptions options{.base = 0x100, .sram_bytes = 1u << 20, .stack_reserve = 4096};
  const LinkedImage image = link(objects({"main_unit", "helper_unit"}), options);
  CHECK(image.find_symbol("__text_start") == image.text_begin);
  CHECK(image.find_symbol("__text_end") == image.text_end);
  CHECK(image.find_symbol("__bss_start") == image.bss_begin);
  CHECK(image.find_symbol("__bss_end") == image.bss_end);
  CHECK(image.find_symbol("__image_end") == image.image_end);
  CHECK(image.find_symbol("__stack_top") == (1u << 20));
  CHECK(image.find_symbol("__sram_size") == (1u << 20));
  CHECK(image.stack_top == (1u << 20));
  // No constructors: an empty init array.
  CHECK(image.find_symbol("__init_array_start") == image.find_symbol("__init_array_end"));
  CHECK(!image.find_symbol("no_such_symbol"));
}

TEST_CASE("objects can refer to the linker-defined symbols") {
  const LinkOptions options{.sram_bytes = 1u << 20};
  const LinkedImage image = link(objects({"main_unit", "helper_unit", "startup_refs"}), options);
  const std::uint32_t table = *image.find_symbol("startup_table");
  CHECK(image_word(image, table) == image.bss_begin);
  CHECK(image_word(image, table + 4) == image.bss_end);
  CHECK(image_word(image, table + 8) == (1u << 20));
  CHECK(image_word(image, table + 12) == *image.find_symbol("__init_array_start"));
  CHECK(image_word(image, table + 16) == *image.find_symbol("__init_array_end"));
  CHECK(verify_relocations(image, "startup_refs") >= 9);
}

TEST_CASE("symbol_at names the function around an address") {
  const LinkedImage image = link(objects({"main_unit", "helper_unit"}), LinkOptions{.base = 0x200});
  const std::uint32_t add = *image.find_symbol("add_values");
  CHECK(image.symbol_at(add) == "add_values");
  CHECK(image.symbol_at(add + 0x10) == "add_values+0x10");
  CHECK(image.symbol_at(image.entry + 4) == "_start+0x4");
  CHECK(!image.symbol_at(0x10)); // below the image
  CHECK(!image.symbol_at(*image.find_symbol("counter")));
  CHECK(!image.symbol_at(*image.find_symbol("dispatch")));
}

TEST_CASE("a strong definition beats a weak one in either order") {
  const auto weak_only = link(objects({"main_unit", "helper_unit", "weak_default"}), {});
  const ObjectView weak_view(test_object("weak_default").data);
  const std::uint32_t weak_text =
      *section_address(weak_only, weak_view, *weak_view.section_index(".text"));
  const std::uint32_t weak_hook =
      weak_text + weak_view.symbols()[*weak_view.symbol_index("board_hook")].value;
  CHECK(weak_only.find_symbol("board_hook") == weak_hook);
  CHECK(branch_targets(weak_only, "weak_default", "board_hook") == std::vector{weak_hook});

  for (const bool strong_first : {true, false}) {
    CAPTURE(strong_first);
    const auto inputs = strong_first
                            ? objects({"main_unit", "strong_hook", "helper_unit", "weak_default"})
                            : objects({"main_unit", "helper_unit", "weak_default", "strong_hook"});
    const LinkedImage image = link(inputs, {});
    const ObjectView strong_view(test_object("strong_hook").data);
    const auto strong_text =
        section_address(image, strong_view, *strong_view.section_index(".text"));
    REQUIRE(strong_text);
    CHECK(image.find_symbol("board_hook") == *strong_text);
    CHECK(branch_targets(image, "weak_default", "board_hook") == std::vector{*strong_text});
    CHECK(verify_relocations(image, "weak_default") > 0);
  }
}

TEST_CASE("an undefined weak reference resolves to address 0") {
  const LinkedImage image = link(objects({"main_unit", "helper_unit", "weak_default"}), {});
  CHECK(!image.find_symbol("optional_feature"));
  const ObjectView view(test_object("weak_default").data);
  const std::uint32_t text = *view.section_index(".text");
  const std::uint32_t base = *section_address(image, view, text);
  int seen = 0;
  for (const ViewRela& r : view.relocations_for(text)) {
    if (view.symbols()[r.symbol].name != "optional_feature")
      continue;
    CHECK(decode_field(r.type, image_word(image, base + r.offset)) == 0);
    ++seen;
  }
  CHECK(seen >= 2);
}

TEST_CASE("common symbols are merged and allocated in bss") {
  const LinkedImage image = link(objects({"main_unit", "helper_unit", "common_a", "common_b"}), {});
  const std::uint32_t buffer = *image.find_symbol("common_buf");
  const std::uint32_t shared = *image.find_symbol("shared_common");
  CHECK(buffer % 16 == 0);
  CHECK(shared % 4 == 0);
  CHECK(buffer >= image.bss_begin);
  CHECK(buffer + 200 <= image.bss_end); // the larger of the two sizes
  CHECK(shared >= image.bss_begin);
  CHECK(shared + 4 <= image.bss_end);
  // Nothing else lives inside the merged block.
  for (const auto& [name, address] : image.symbols) {
    if (name == "common_buf" || name.starts_with("__"))
      continue;
    const std::string& symbol = name;
    CAPTURE(symbol);
    CHECK((address < buffer || address >= buffer + 200));
  }
  const std::uint32_t tail = *image.find_symbol("odd_tail");
  CHECK(tail + 13 <= image.bss_end);
  CHECK(image.bss_begin % 4 == 0);
  CHECK(image.bss_end % 4 == 0);
  CHECK(verify_relocations(image, "common_a") > 0);
  CHECK(verify_relocations(image, "common_b") > 0);
}

TEST_CASE("small absolute addresses use the 21-bit form, including the top of memory") {
  for (const std::uint32_t base : {0u, 0xFFF00000u}) {
    CAPTURE(base);
    const LinkOptions options{.base = base,
                              .sram_bytes = base == 0 ? (1u << 21) : 0xFFFFFFFFu,
                              .stack_reserve = base == 0 ? 16384u : 0u};
    const LinkedImage image = link(objects({"small_model"}), options);
    CHECK(verify_relocations(image, "small_model") == 6);
    const std::uint32_t word = *image.find_symbol("small_word");
    // ld [small_word], %r3: the address in bits 22..18 and 15..0.
    const std::uint32_t load = image_word(image, image.entry);
    CHECK((load & 0xffff) == (word & 0xffff));
    CHECK(((load >> 18) & 0x1f) == ((word >> 16) & 0x1f));
    CHECK(image_word(image, word + 4) == image.entry);
    CHECK(image_word(image, *image.find_symbol("small_table")) == word);
  }
}

TEST_CASE("objects in .ldata go above bss, out of the way of 21-bit addresses") {
  const LinkOptions options{.sram_bytes = 2u << 20};
  const LinkedImage image = link(objects({"small/large_data"}), options);
  const std::uint32_t large = *image.find_symbol("large_buffer");
  const std::uint32_t small = *image.find_symbol("small_counter");
  const std::uint32_t zeroed = *image.find_symbol("zeroed_counter");
  CHECK(small < image.bss_begin);
  CHECK(zeroed >= image.bss_begin);
  CHECK(zeroed < image.bss_end);
  CHECK(large >= image.bss_end);
  REQUIRE(image.find_symbol("reserved_area"));
  const std::uint32_t reserved = *image.find_symbol("reserved_area");
  CHECK(reserved >= image.bss_end);
  CHECK(reserved + 4096 <= image.image_end);
  CHECK(large + 1536 * 1024 <= image.image_end);
  CHECK(image.image_end == image.base + image.bytes.size());
  // The small objects are within the 21-bit range; the buffer reaches past it.
  CHECK(image.bss_end < (1u << 20));
  CHECK(large + 1536 * 1024 > (1u << 20));
  CHECK(image_word(image, small) == 5);
  CHECK(verify_relocations(image, "small/large_data") > 0);
}

TEST_CASE("an image's non-zero pieces leave out its long runs of zeros and nothing else") {
  const LinkOptions options{.base = 0x400};
  LinkedImage image = link(objects({"main_unit", "helper_unit"}), options);
  REQUIRE(image.bss_begin < image.bss_end);
  // Written over zeros, the pieces give back the whole image.
  auto rebuilt = [](const LinkedImage& im, std::size_t gap) {
    std::vector<std::uint8_t> sram(im.base + im.bytes.size(), 0);
    std::uint32_t last_end = 0;
    for (const auto& piece : im.nonzero_pieces(gap)) {
      CHECK(piece.address >= last_end); // in order, apart
      CHECK(!piece.bytes.empty());
      std::copy(piece.bytes.begin(), piece.bytes.end(), sram.begin() + piece.address);
      last_end = piece.address + static_cast<std::uint32_t>(piece.bytes.size());
    }
    return std::equal(im.bytes.begin(), im.bytes.end(), sram.begin() + im.base);
  };
  for (const std::size_t gap : {1u, 3u, 8u, 64u, 4096u})
    CHECK(rebuilt(image, gap));

  // A gap of zeros of at least the given length splits the image, at any
  // alignment; a shorter one does not.
  LinkedImage made = image;
  made.bytes.assign(100, 0);
  made.bytes[0] = 1;
  made.bytes[13] = 2; // 12 zeros between
  made.bytes[99] = 3; // 85 zeros between
  const auto pieces = made.nonzero_pieces(16);
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0].address == made.base);
  CHECK(pieces[0].bytes.size() == 14);
  CHECK(pieces[1].address == made.base + 99);
  CHECK(pieces[1].bytes.size() == 1);
  CHECK(made.nonzero_pieces(100).size() == 1);
  CHECK(rebuilt(made, 16));
  made.bytes.assign(64, 0);
  CHECK(made.nonzero_pieces(8).empty());

  const LinkedImage layout = image.layout_only();
  CHECK(layout.bytes.empty());
  CHECK(layout.entry == image.entry);
  CHECK(layout.bss_begin == image.bss_begin);
  CHECK(layout.symbols == image.symbols);
  CHECK(layout.symbol_at(image.entry) == image.symbol_at(image.entry));
}

} // namespace lanai::loader::test
