// The core's arithmetic: register write-back (r0 and r1 constant, a write
// to pc through the fetch queue), the shifter, the ALU with its flags, and
// the address arithmetic of register-register memory operations. Inline,
// so that the execution loop (cpu_execute.cpp), their only user, compiles
// them into each instruction's case.
#pragma once

#include <cstdint>

#include "iss/cpu.hpp"

namespace lanai::iss {

inline void Cpu::write_reg(unsigned r, std::uint32_t v, bool from_load) {
  if (r > reg_pc + 0u) {
    regs_[r] = v;
    return;
  }
  if (r != reg_pc) return; // r0 and r1 are constants
  if (from_load) {
    nnpc_ = v;
  } else {
    npc_ = v;
    nnpc_ = v + 4;
  }
}

inline std::uint32_t Cpu::shift(std::uint32_t a, std::uint32_t amount, bool arithmetic, bool set_flags) {
  // The amount is a two's complement count: positive shifts left, negative
  // right. Counts beyond +-31 wrap (taken modulo 32), as LLVM's Lanai
  // lowering states the hardware does.
  const auto n = static_cast<std::int32_t>(amount);
  std::uint32_t r;
  bool carry = false;
  if (n >= 0) {
    const unsigned k = static_cast<unsigned>(n) & 31u;
    r = a << k;
    if (k > 0) carry = (a >> (32 - k)) & 1u;
  } else {
    const unsigned k = static_cast<unsigned>(-static_cast<std::int64_t>(n)) & 31u;
    r = arithmetic ? static_cast<std::uint32_t>(static_cast<std::int32_t>(a) >> k) : a >> k;
  }
  if (set_flags)
    flags_ = static_cast<std::uint8_t>((carry ? flag_c : 0) | (r >> 31 ? flag_n : 0) |
                                       (r == 0 ? flag_z : 0));
  return r;
}

inline std::uint32_t Cpu::alu(const Instruction& in, std::uint32_t a, std::uint32_t b) {
  std::uint32_t carry_in = 0;
  switch (in.alu) {
  case alu_add: break;
  case alu_addc: carry_in = flags_ & flag_c; break;
  case alu_sub: b = ~b; carry_in = 1; break;
  case alu_subb: b = ~b; carry_in = flags_ & flag_c; break;
  default: {
    const std::uint32_t r = in.alu == alu_and ? (a & b) : in.alu == alu_or ? (a | b) : (a ^ b);
    if (in.set_flags)
      flags_ = static_cast<std::uint8_t>((r >> 31 ? flag_n : 0) | (r == 0 ? flag_z : 0));
    return r;
  }
  }
  const std::uint64_t sum = std::uint64_t(a) + b + carry_in;
  const auto r = static_cast<std::uint32_t>(sum);
  if (in.set_flags) {
    const bool overflow = ((~(a ^ b) & (a ^ r)) >> 31) != 0;
    flags_ = static_cast<std::uint8_t>(((sum >> 32) ? flag_c : 0) | (overflow ? flag_v : 0) |
                                       (r >> 31 ? flag_n : 0) | (r == 0 ? flag_z : 0));
  }
  return r;
}

inline std::uint32_t Cpu::address_op(const Instruction& in, std::uint32_t a, std::uint32_t b) const {
  const std::uint32_t c = flags_ & flag_c;
  switch (in.alu) {
  case alu_add: return a + b;
  case alu_addc: return a + b + c;
  case alu_sub: return a - b;
  case alu_subb: return a + ~b + c;
  case alu_and: return a & b;
  case alu_or: return a | b;
  case alu_xor: return a ^ b;
  default: return const_cast<Cpu*>(this)->shift(a, b, in.arithmetic, false);
  }
}

} // namespace lanai::iss
