// Decoding of Lanai instruction words (formats RI, RR, RM, RRM, BR, BRR,
// SCC, SLS, SLI, SPLS and the special bit-counting instructions), including
// the immediate expansions each format defines.
#include "emulator/iss/decoder.hpp"

namespace lanai::iss {
namespace {

constexpr std::uint32_t bits(std::uint32_t w, unsigned hi, unsigned lo) {
  return (w >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

constexpr std::uint32_t sign_extend(std::uint32_t v, unsigned width) {
  const std::uint32_t m = 1u << (width - 1);
  return (v ^ m) - m;
}

// DDDI: bits 27..25 or 2..0 hold DDD, I is a separate bit.
constexpr std::uint8_t condition(std::uint32_t ddd, std::uint32_t i) {
  return static_cast<std::uint8_t>((ddd << 1) | i);
}

Instruction decode_ri(std::uint32_t w, Instruction in) {
  const auto op = bits(w, 30, 28);
  const bool high = bits(w, 16, 16) != 0;
  const auto k = bits(w, 15, 0);
  in.rd = bits(w, 27, 23);
  in.rs1 = bits(w, 22, 18);
  in.set_flags = bits(w, 17, 17) != 0;
  if (op == alu_special) {
    in.op = OpClass::shift_ri;
    in.arithmetic = high;
    in.imm = sign_extend(k, 16);
    return in;
  }
  in.op = OpClass::alu_ri;
  in.alu = static_cast<std::uint8_t>(op);
  if (op == alu_and)
    in.imm = high ? (k << 16) | 0xFFFFu : 0xFFFF0000u | k;
  else
    in.imm = high ? k << 16 : k;
  return in;
}

Instruction decode_rr(std::uint32_t w, Instruction in) {
  const auto op = bits(w, 10, 8);
  const auto j = bits(w, 7, 3);
  in.rd = bits(w, 27, 23);
  in.rs1 = bits(w, 22, 18);
  in.rs2 = bits(w, 15, 11);
  in.set_flags = bits(w, 17, 17) != 0;
  in.cond = condition(bits(w, 2, 0), bits(w, 16, 16));
  in.alu = static_cast<std::uint8_t>(op);
  if (op != alu_special) {
    if (j != 0)
      return in;
    in.op = OpClass::alu_rr;
  } else if (j == 0) {
    if (!in.set_flags)
      in.op = OpClass::select;
  } else if (j == 0x10 || j == 0x18) {
    in.op = OpClass::shift_rr;
    in.arithmetic = j == 0x18;
  }
  return in;
}

Instruction decode_rm(std::uint32_t w, Instruction in) {
  in.op = bits(w, 28, 28) ? OpClass::store_rm : OpClass::load_rm;
  in.cost = bits(w, 28, 28) ? CostClass::store : CostClass::load;
  in.rd = bits(w, 27, 23);
  in.rs1 = bits(w, 22, 18);
  in.mode = static_cast<std::uint8_t>(bits(w, 17, 16));
  in.imm = sign_extend(bits(w, 15, 0), 16);
  in.alu = alu_add;
  return in;
}

Instruction decode_rrm(std::uint32_t w, Instruction in) {
  const bool store = bits(w, 28, 28) != 0;
  const auto yl = bits(w, 2, 1);
  const bool e = bits(w, 0, 0) != 0;
  const auto op = bits(w, 10, 8);
  const auto j = bits(w, 7, 3);
  in.rd = bits(w, 27, 23);
  in.rs1 = bits(w, 22, 18);
  in.rs2 = bits(w, 15, 11);
  in.mode = static_cast<std::uint8_t>(bits(w, 17, 16));
  in.alu = static_cast<std::uint8_t>(op);
  if (op == alu_special) {
    // As LLVM decodes it: J bit 3 selects the arithmetic shift, J bit 2 set
    // names no operator at all.
    if (j & 0x4u)
      return in;
    in.arithmetic = (j & 0x8u) != 0;
  }
  if (yl == 3 || (store && e))
    return in;
  in.width = yl == 1 ? 4 : (yl == 0 ? 2 : 1);
  in.zero_extend = e;
  in.op = store ? OpClass::store_rrm : OpClass::load_rrm;
  in.cost = store ? CostClass::store : CostClass::load;
  return in;
}

Instruction decode_special(std::uint32_t w, Instruction in) {
  if (bits(w, 17, 3) != 0)
    return in;
  in.rd = bits(w, 27, 23);
  in.rs1 = bits(w, 22, 18);
  switch (bits(w, 2, 0)) {
  case 1:
    in.op = OpClass::popc;
    break;
  case 2:
    in.op = OpClass::leadz;
    break;
  case 3:
    in.op = OpClass::trailz;
    break;
  default:
    break;
  }
  return in;
}

Instruction decode_branch_family(std::uint32_t w, Instruction in) {
  in.cond = condition(bits(w, 27, 25), bits(w, 0, 0));
  if (bits(w, 1, 1) == 0) {
    in.op = OpClass::branch;
    in.cost = CostClass::branch;
    in.imm = w & 0x01FFFFFCu;
    return in;
  }
  if (bits(w, 24, 24) != 0) {
    if (bits(w, 23, 16) != 0)
      return in;
    in.op = OpClass::branch_rel;
    in.cost = CostClass::branch;
    in.imm = sign_extend(bits(w, 15, 0) & 0xFFFCu, 16);
    return in;
  }
  if (bits(w, 23, 23) != 0 || bits(w, 17, 2) != 0)
    return in;
  in.op = OpClass::set_cond;
  in.rd = bits(w, 22, 18);
  return in;
}

Instruction decode_sls_family(std::uint32_t w, Instruction in) {
  in.rd = bits(w, 27, 23);
  const auto kind = bits(w, 17, 16);
  const auto addr21 = (bits(w, 22, 18) << 16) | bits(w, 15, 0);
  if (kind == 0 || kind == 1) {
    // The compiler treats the 21-bit absolute address as signed, which puts
    // the top of the address space (device registers) in reach.
    in.op = kind ? OpClass::store_sls : OpClass::load_sls;
    in.cost = kind ? CostClass::store : CostClass::load;
    in.imm = sign_extend(addr21 & ~3u, 21);
    return in;
  }
  if (kind == 2) {
    in.op = OpClass::load_imm;
    in.cost = CostClass::load;
    in.imm = addr21;
    return in;
  }
  if (bits(w, 15, 15) != 0)
    return in;
  const bool byte = bits(w, 14, 14) != 0;
  const bool store = bits(w, 13, 13) != 0;
  const bool e = bits(w, 12, 12) != 0;
  if (store && e)
    return in;
  in.rs1 = bits(w, 22, 18);
  in.mode = static_cast<std::uint8_t>(bits(w, 11, 10));
  in.imm = sign_extend(bits(w, 9, 0), 10);
  in.alu = alu_add;
  in.width = byte ? 1 : 2;
  in.zero_extend = e;
  in.op = store ? OpClass::store_spls : OpClass::load_spls;
  in.cost = store ? CostClass::store : CostClass::load;
  return in;
}

Instruction decode_word(std::uint32_t word) {
  Instruction in;
  in.word = word;
  switch (word >> 28) {
  case 0x0:
  case 0x1:
  case 0x2:
  case 0x3:
  case 0x4:
  case 0x5:
  case 0x6:
  case 0x7:
    return decode_ri(word, in);
  case 0x8:
  case 0x9:
    return decode_rm(word, in);
  case 0xA:
  case 0xB:
    return decode_rrm(word, in);
  case 0xC:
    return decode_rr(word, in);
  case 0xD:
    return decode_special(word, in);
  case 0xE:
    return decode_branch_family(word, in);
  default:
    return decode_sls_family(word, in);
  }
}

} // namespace

Instruction decode(std::uint32_t word) {
  Instruction in = decode_word(word);
  in.reads_rd = in.cost == CostClass::store;
  const bool writes_rd = in.op != OpClass::invalid && in.op != OpClass::branch &&
                         in.op != OpClass::branch_rel && in.cost != CostClass::store;
  const bool updates_base = (in.mode == addr_post || in.mode == addr_pre) &&
                            (in.cost == CostClass::load || in.cost == CostClass::store) &&
                            in.op != OpClass::load_sls && in.op != OpClass::store_sls &&
                            in.op != OpClass::load_imm;
  in.writes_pc = (writes_rd && in.rd == reg_pc) || (updates_base && in.rs1 == reg_pc);
  return in;
}

} // namespace lanai::iss
