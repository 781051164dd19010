// Field encodings of single relocations, checked bit by bit, and the
// R_LANAI_21_F form applied to a real object.

#include <doctest/doctest.h>

#include "emulator/loader/relocation.hpp"
#include "tests/loader/test_support.hpp"

namespace lanai::loader::test {

TEST_CASE("data and half-word relocations") {
  CHECK(patch_word(r_lanai_32, 0xdeadbeef, 0x12345678).word == 0x12345678);
  CHECK(patch_word(r_lanai_hi16, 0x0181abcd, 0x12345678).word == 0x01811234);
  CHECK(patch_word(r_lanai_lo16, 0x518cabcd, 0x12345678).word == 0x518c5678);
  CHECK(patch_word(r_lanai_hi16, 0, 0xffffffff).status == PatchStatus::ok);
  CHECK(patch_word(r_lanai_none, 0x12345678, 0xffffffff).word == 0x12345678);
}

TEST_CASE("R_LANAI_25 takes an aligned absolute target below 32 MiB") {
  // Condition code and the low two bits are the instruction's own.
  CHECK(patch_word(r_lanai_25, 0xe6000001, 0x1234).word == 0xe6001235);
  CHECK(patch_word(r_lanai_25, 0xe0000000, 0x01FFFFFC).word == 0xe1FFFFFC);
  CHECK(patch_word(r_lanai_25, 0xe0000000, 1u << 25).status == PatchStatus::out_of_range);
  CHECK(patch_word(r_lanai_25, 0xe0000000, 0xfffffffc).status == PatchStatus::out_of_range);
  CHECK(patch_word(r_lanai_25, 0xe0000000, 0x1002).status == PatchStatus::misaligned);
}

TEST_CASE("R_LANAI_21 splits a sign-extended 21-bit address") {
  // Bits 20..16 of the value go to bits 22..18 of the word.
  CHECK(patch_word(r_lanai_21, 0xf1800000, 0x000F1234).word ==
        (0xf1800000u | (0xFu << 18) | 0x1234));
  CHECK(patch_word(r_lanai_21, 0xffffffff, 0).word == ~0x007CFFFFu);
  CHECK(patch_word(r_lanai_21, 0, 0x000FFFFF).status == PatchStatus::ok);
  CHECK(patch_word(r_lanai_21, 0, 0x00100000).status == PatchStatus::out_of_range);
  const PatchResult high = patch_word(r_lanai_21, 0, 0xFFF01234);
  CHECK(high.status == PatchStatus::ok);
  CHECK(high.word == ((0x10u << 18) | 0x1234));
  CHECK(patch_word(r_lanai_21, 0, 0xFFFFFFFF).word == 0x007CFFFF);
  CHECK(patch_word(r_lanai_21, 0, 0xFFEFFFFF).status == PatchStatus::out_of_range);
  CHECK(patch_word(r_lanai_21, 0, 0x80000000).status == PatchStatus::out_of_range);
}

TEST_CASE("R_LANAI_21_F keeps the flag bits and needs an aligned value") {
  CHECK(patch_word(r_lanai_21_f, 0x00000003, 0x1000).word == 0x1003);
  CHECK(patch_word(r_lanai_21_f, 0x00000002, 0xFFF00008).word == ((0x10u << 18) | 0x000a));
  CHECK(patch_word(r_lanai_21_f, 0, 0x1001).status == PatchStatus::misaligned);
  CHECK(patch_word(r_lanai_21_f, 0, 0x00100000).status == PatchStatus::out_of_range);
}

TEST_CASE("relocation names and unknown types") {
  CHECK(relocation_name(r_lanai_25) == "R_LANAI_25");
  CHECK(relocation_name(r_lanai_21_f) == "R_LANAI_21_F");
  CHECK(relocation_name(9) == "type 9");
  CHECK(relocation_type_known(r_lanai_lo16));
  CHECK(!relocation_type_known(7));
  CHECK(patch_word(7, 0x1234, 0).status == PatchStatus::unknown_type);
}

TEST_CASE("an R_LANAI_21_F relocation in an object is applied") {
  ObjectInput input = test_object("small_model");
  const ObjectView view(input.data);
  const std::uint32_t text = *view.section_index(".text");
  const ViewRela first = view.relocations_for(text).at(0);
  REQUIRE(first.type == 1);
  REQUIRE(first.offset == 0);
  put32(input.data, first.entry_at + 4, (first.symbol << 8) | 2);
  // Give the instruction flag bits that R_LANAI_21 would overwrite.
  const std::size_t word_at = view.sections()[text].offset + first.offset;
  put32(input.data, word_at, get32(input.data, word_at) | 3);

  const LinkedImage image = link(std::vector{input}, {});
  const std::uint32_t word = image_word(image, image.entry);
  CHECK((word & 3) == 3);
  CHECK(decode_field(2, word) == *image.find_symbol("small_word"));

  put32(input.data, first.entry_at + 8, 2); // addend 2: misaligned
  const std::string message = link_error(std::vector{input});
  CHECK(message.find("R_LANAI_21_F at .text+0x0") != std::string::npos);
  CHECK(message.find("4-byte aligned") != std::string::npos);
}

} // namespace lanai::loader::test
