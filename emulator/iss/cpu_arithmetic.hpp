// The core's arithmetic: the flags, the shifter, the ALU and the address
// arithmetic of register-register memory operations, as free functions on
// values and a flags byte. Both execution paths (the per-instruction
// reference in cpu_execute.cpp and the block executor in cpu_blocks.cpp)
// compute with these, so the two cannot disagree on a result or a flag.
// Always inlined: each use sits in an instruction's case, where the
// operation and the flags wanted are often known.
#pragma once

#include <cstdint>

#include "emulator/iss/instruction.hpp"

namespace lanai::iss {

// Bits of the flags byte; a condition code is looked up by it (see Cpu).
inline constexpr std::uint8_t flag_c = 1, flag_v = 2, flag_n = 4, flag_z = 8;

// N and Z of a result, C and V clear (logical operations, predicated skips).
inline std::uint8_t nz_flags(std::uint32_t r) {
  return static_cast<std::uint8_t>((r >> 31 ? flag_n : 0) | (r == 0 ? flag_z : 0));
}

// a + b + carry_in with C (carry out), V (signed overflow), N and Z.
[[gnu::always_inline]] inline std::uint32_t
add_setting_flags(std::uint32_t a, std::uint32_t b, std::uint32_t carry_in, std::uint8_t& flags) {
  const std::uint64_t sum = std::uint64_t(a) + b + carry_in;
  const auto r = static_cast<std::uint32_t>(sum);
  const bool overflow = ((~(a ^ b) & (a ^ r)) >> 31) != 0;
  flags =
      static_cast<std::uint8_t>(((sum >> 32) ? flag_c : 0) | (overflow ? flag_v : 0) | nz_flags(r));
  return r;
}

[[gnu::always_inline]] inline std::uint32_t shift_value(std::uint32_t a, std::uint32_t amount,
                                                        bool arithmetic, bool set_flags,
                                                        std::uint8_t& flags) {
  // The amount is a two's complement count: positive shifts left, negative
  // right. Counts beyond +-31 wrap (taken modulo 32), as LLVM's Lanai
  // lowering states the hardware does.
  const auto n = static_cast<std::int32_t>(amount);
  std::uint32_t r;
  bool carry = false;
  if (n >= 0) {
    const unsigned k = static_cast<unsigned>(n) & 31u;
    r = a << k;
    if (k > 0)
      carry = (a >> (32 - k)) & 1u;
  } else {
    const unsigned k = static_cast<unsigned>(-static_cast<std::int64_t>(n)) & 31u;
    r = arithmetic ? static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> k) : a >> k;
  }
  if (set_flags)
    flags = static_cast<std::uint8_t>((carry ? flag_c : 0) | nz_flags(r));
  return r;
}

[[gnu::always_inline]] inline std::uint32_t alu_value(unsigned op, std::uint32_t a, std::uint32_t b,
                                                      bool set_flags, std::uint8_t& flags) {
  std::uint32_t carry_in = 0;
  switch (op) {
  case alu_add:
    break;
  case alu_addc:
    carry_in = flags & flag_c;
    break;
  case alu_sub:
    b = ~b;
    carry_in = 1;
    break;
  case alu_subb:
    b = ~b;
    carry_in = flags & flag_c;
    break;
  default: {
    const std::uint32_t r = op == alu_and ? (a & b) : op == alu_or ? (a | b) : (a ^ b);
    if (set_flags)
      flags = nz_flags(r);
    return r;
  }
  }
  if (set_flags)
    return add_setting_flags(a, b, carry_in, flags);
  return a + b + carry_in;
}

// The address of a register-register memory operation: Rs1 op Rs2, where
// the shift operator shifts like the RR shifts and sets no flags.
[[gnu::always_inline]] inline std::uint32_t
address_value(unsigned op, bool arithmetic, std::uint32_t a, std::uint32_t b, std::uint8_t flags) {
  const std::uint32_t c = flags & flag_c;
  switch (op) {
  case alu_add:
    return a + b;
  case alu_addc:
    return a + b + c;
  case alu_sub:
    return a - b;
  case alu_subb:
    return a + ~b + c;
  case alu_and:
    return a & b;
  case alu_or:
    return a | b;
  case alu_xor:
    return a ^ b;
  default:
    return shift_value(a, b, arithmetic, false, flags);
  }
}

} // namespace lanai::iss
