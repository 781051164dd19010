// Lanai relocation types and how each one patches a 32-bit big-endian word.
// Pure functions: the linker supplies the value and reports failures.
#pragma once

#include <cstdint>
#include <string>

namespace lanai::loader {

enum RelocationType : std::uint32_t {
  r_lanai_none = 0,
  r_lanai_21 = 1,   // 21-bit absolute address split over bits 22..18 and 15..0
  r_lanai_21_f = 2, // as R_LANAI_21, but bits 1..0 keep the instruction's flags
  r_lanai_25 = 3,   // absolute branch target in bits 24..2
  r_lanai_32 = 4,   // data word
  r_lanai_hi16 = 5, // upper half of the value into bits 15..0
  r_lanai_lo16 = 6, // lower half of the value into bits 15..0
};

bool relocation_type_known(std::uint32_t type);

// "R_LANAI_25", or "type 9" for types this loader does not know.
std::string relocation_name(std::uint32_t type);

enum class PatchStatus { ok, out_of_range, misaligned, unknown_type };

struct PatchResult {
  PatchStatus status = PatchStatus::ok;
  std::uint32_t word = 0; // the patched word when status is ok
};

// Patches `word` so that its relocated field holds `value` (S + A).
PatchResult patch_word(std::uint32_t type, std::uint32_t word, std::uint32_t value);

// Bits of the word a relocation type rewrites (0 for none/unknown).
std::uint32_t relocation_field_mask(std::uint32_t type);

} // namespace lanai::loader
