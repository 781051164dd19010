// Field encodings of the Lanai relocations, following the LLVM Lanai backend:
// branch targets are absolute, and small addresses fit the 21-bit SLI/SLS form.

#include "emulator/loader/relocation.hpp"

#include <fmt/format.h>

namespace lanai::loader {
namespace {

constexpr std::uint32_t mask_21 = 0x007CFFFF;
constexpr std::uint32_t mask_21_f = 0x007CFFFC;
constexpr std::uint32_t mask_25 = 0x01FFFFFC;

// Sign-extended 21-bit range, so that addresses 0xFFF00000 and up also fit.
bool fits_signed_21(std::uint32_t value) {
  const auto v = static_cast<std::int32_t>(value);
  return v >= -(1 << 20) && v < (1 << 20);
}

// The SLI/SLS encoding keeps the top five bits of the 21-bit value in 22..18.
std::uint32_t encode_21(std::uint32_t value) {
  return (value & 0xffffu) | (((value >> 16) & 0x1fu) << 18);
}

} // namespace

bool relocation_type_known(std::uint32_t type) { return type <= r_lanai_lo16; }

std::string relocation_name(std::uint32_t type) {
  switch (type) {
  case r_lanai_none:
    return "R_LANAI_NONE";
  case r_lanai_21:
    return "R_LANAI_21";
  case r_lanai_21_f:
    return "R_LANAI_21_F";
  case r_lanai_25:
    return "R_LANAI_25";
  case r_lanai_32:
    return "R_LANAI_32";
  case r_lanai_hi16:
    return "R_LANAI_HI16";
  case r_lanai_lo16:
    return "R_LANAI_LO16";
  default:
    return fmt::format("type {}", type);
  }
}

std::uint32_t relocation_field_mask(std::uint32_t type) {
  switch (type) {
  case r_lanai_21:
    return mask_21;
  case r_lanai_21_f:
    return mask_21_f;
  case r_lanai_25:
    return mask_25;
  case r_lanai_32:
    return 0xffffffffu;
  case r_lanai_hi16:
  case r_lanai_lo16:
    return 0x0000ffffu;
  default:
    return 0;
  }
}

PatchResult patch_word(std::uint32_t type, std::uint32_t word, std::uint32_t value) {
  switch (type) {
  case r_lanai_none:
    return {PatchStatus::ok, word};
  case r_lanai_32:
    return {PatchStatus::ok, value};
  case r_lanai_hi16:
    return {PatchStatus::ok, (word & 0xffff0000u) | (value >> 16)};
  case r_lanai_lo16:
    return {PatchStatus::ok, (word & 0xffff0000u) | (value & 0xffffu)};
  case r_lanai_25:
    // Branches jump to an absolute word address below 32 MiB.
    if (value >= (1u << 25))
      return {PatchStatus::out_of_range, word};
    if ((value & 3u) != 0)
      return {PatchStatus::misaligned, word};
    return {PatchStatus::ok, (word & ~mask_25) | value};
  case r_lanai_21:
    if (!fits_signed_21(value))
      return {PatchStatus::out_of_range, word};
    return {PatchStatus::ok, (word & ~mask_21) | encode_21(value)};
  case r_lanai_21_f:
    if (!fits_signed_21(value))
      return {PatchStatus::out_of_range, word};
    if ((value & 3u) != 0)
      return {PatchStatus::misaligned, word};
    return {PatchStatus::ok, (word & ~mask_21_f) | encode_21(value)};
  default:
    return {PatchStatus::unknown_type, word};
  }
}

} // namespace lanai::loader
