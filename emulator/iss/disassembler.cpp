// Renders decoded instructions in LLVM's Lanai assembly syntax, including
// its aliases (mov, nop, pre/post increment shorthands, register jumps).
#include "emulator/iss/disassembler.hpp"

#include <fmt/format.h>

#include "emulator/iss/decoder.hpp"

namespace lanai::iss {

namespace {

constexpr std::string_view alu_names[8] = {"add", "addc", "sub", "subb", "and", "or", "xor", "sh"};

std::string reg(unsigned r) { return fmt::format("%{}", register_name(r)); }

std::string hex(std::int64_t v) {
  return v < 0 ? fmt::format("-0x{:x}", -v) : fmt::format("0x{:x}", v);
}

std::string flag_suffix(const Instruction& in) { return in.set_flags ? ".f" : ""; }

std::string predicate_suffix(unsigned cond) {
  return cond == 0 ? std::string() : fmt::format(".{}", condition_name(cond));
}

std::int32_t as_signed(std::uint32_t v) { return static_cast<std::int32_t>(v); }

// Memory operand of the RM and SPLS forms: "off[*%base]" style.
std::string base_operand(const Instruction& in) {
  const bool pre = in.mode == addr_pre;
  const bool post = in.mode == addr_post;
  const std::int32_t off = in.mode == addr_base ? 0 : as_signed(in.imm);
  return fmt::format("{}[{}{}{}]", off, pre ? "*" : "", reg(in.rs1), post ? "*" : "");
}

// The "[--%sp]" / "[%r3++]" shorthand when the offset equals the access size.
std::string increment_operand(const Instruction& in) {
  if (in.mode != addr_pre && in.mode != addr_post)
    return {};
  const std::int32_t off = as_signed(in.imm);
  if (off != in.width && off != -in.width)
    return {};
  const char* op = off < 0 ? "--" : "++";
  return in.mode == addr_pre ? fmt::format("[{}{}]", op, reg(in.rs1))
                             : fmt::format("[{}{}]", reg(in.rs1), op);
}

std::string address_operator(const Instruction& in) {
  if (in.alu != alu_special)
    return std::string(alu_names[in.alu]);
  return in.arithmetic ? "sha" : "sh";
}

std::string register_operand(const Instruction& in) {
  const bool pre = in.mode == addr_pre;
  const bool post = in.mode == addr_post;
  const unsigned rs2 = in.mode == addr_base ? 0 : in.rs2;
  return fmt::format("[{}{}{} {} {}]", pre ? "*" : "", reg(in.rs1), post ? "*" : "",
                     address_operator(in), reg(rs2));
}

std::string part_word_mnemonic(const Instruction& in, bool store) {
  const char* suffix = in.width == 4 ? "" : (in.width == 2 ? ".h" : ".b");
  if (store)
    return fmt::format("st{}", suffix);
  return fmt::format("{}ld{}", in.zero_extend ? "u" : "", suffix);
}

std::string memory(const Instruction& in, const std::string& mnemonic, const std::string& operand,
                   bool store) {
  return store ? fmt::format("{}\t{}, {}", mnemonic, reg(in.rd), operand)
               : fmt::format("{}\t{}, {}", mnemonic, operand, reg(in.rd));
}

std::string alu_ri(const Instruction& in) {
  const std::uint32_t raw = in.word & 0xFFFFu;
  const bool high = (in.word >> 16) & 1u;
  if (in.word >= 1 && in.word <= 6)
    return in.word == 1 ? "nop" : fmt::format("log_{}", in.word - 2);
  const bool mov_add = in.alu == alu_add && !in.set_flags && in.rs1 == 0;
  const bool mov_and = in.alu == alu_and && !in.set_flags && in.rs1 == 1;
  if (mov_add || mov_and)
    return fmt::format("mov\t{}, {}", hex(in.imm), reg(in.rd));
  (void)raw;
  (void)high;
  return fmt::format("{}{}\t{}, {}, {}", alu_names[in.alu], flag_suffix(in), reg(in.rs1),
                     hex(in.imm), reg(in.rd));
}

std::string alu_rr(const Instruction& in) {
  if (in.alu == alu_or && in.rd == reg_pc && !in.set_flags) {
    if (in.rs1 == 0 && in.cond == 0)
      return fmt::format("bt\t{}", reg(in.rs2));
    if (in.rs2 == 0)
      return fmt::format("b{}\t{}", condition_name(in.cond), reg(in.rs1));
    return fmt::format("b{}\t{} add {}", condition_name(in.cond), reg(in.rs1), reg(in.rs2));
  }
  if (in.alu == alu_add && !in.set_flags && in.rs2 == 0 && in.cond == 0)
    return fmt::format("mov\t{}, {}", reg(in.rs1), reg(in.rd));
  return fmt::format("{}{}{}\t{}, {}, {}", alu_names[in.alu], flag_suffix(in),
                     predicate_suffix(in.cond), reg(in.rs1), reg(in.rs2), reg(in.rd));
}

std::string memory_form(const Instruction& in) {
  const bool store = in.op == OpClass::store_rm || in.op == OpClass::store_rrm ||
                     in.op == OpClass::store_spls || in.op == OpClass::store_sls;
  switch (in.op) {
  case OpClass::load_rm:
  case OpClass::store_rm: {
    if (in.word == 0x8116FFFCu)
      return "ld\t-4[%fp], %pc ! return";
    const std::string mn = store ? "st" : "ld";
    const std::string inc = increment_operand(in);
    return memory(in, mn, inc.empty() ? base_operand(in) : inc, store);
  }
  case OpClass::load_spls:
  case OpClass::store_spls: {
    const std::string inc = increment_operand(in);
    return memory(in, part_word_mnemonic(in, store), inc.empty() ? base_operand(in) : inc, store);
  }
  case OpClass::load_rrm:
  case OpClass::store_rrm:
    return memory(in, part_word_mnemonic(in, store), register_operand(in), store);
  default: {
    const std::uint32_t addr21 = ((in.word >> 18) & 0x1Fu) << 16 | (in.word & 0xFFFFu);
    return memory(in, store ? "st" : "ld", fmt::format("[{}]", hex(addr21)), store);
  }
  }
}

} // namespace

std::string disassemble(const Instruction& in) {
  switch (in.op) {
  case OpClass::invalid:
    return "<invalid>";
  case OpClass::alu_ri:
    return alu_ri(in);
  case OpClass::shift_ri:
    return fmt::format("{}{}\t{}, {}, {}", in.arithmetic ? "sha" : "sh", flag_suffix(in),
                       reg(in.rs1), hex(as_signed(in.imm)), reg(in.rd));
  case OpClass::alu_rr:
    return alu_rr(in);
  case OpClass::shift_rr:
    return fmt::format("{}{}{}\t{}, {}, {}", in.arithmetic ? "sha" : "sh", flag_suffix(in),
                       predicate_suffix(in.cond), reg(in.rs1), reg(in.rs2), reg(in.rd));
  case OpClass::select:
    return fmt::format("sel.{} {}, {}, {}", condition_name(in.cond), reg(in.rs1), reg(in.rs2),
                       reg(in.rd));
  case OpClass::load_imm:
    return fmt::format("mov\t{}, {}", hex(in.imm), reg(in.rd));
  case OpClass::branch:
    return fmt::format("b{}\t{}", condition_name(in.cond), hex(in.imm));
  case OpClass::branch_rel:
    return fmt::format("b{}.r\t{}", condition_name(in.cond), hex(in.word & 0xFFFCu));
  case OpClass::set_cond:
    return fmt::format("s{}\t{}", condition_name(in.cond), reg(in.rd));
  case OpClass::popc:
    return fmt::format("popc\t{}, {}", reg(in.rs1), reg(in.rd));
  case OpClass::leadz:
    return fmt::format("leadz\t{}, {}", reg(in.rs1), reg(in.rd));
  case OpClass::trailz:
    return fmt::format("trailz\t{}, {}", reg(in.rs1), reg(in.rd));
  default:
    return memory_form(in);
  }
}

std::string disassemble(std::uint32_t word) { return disassemble(decode(word)); }

std::string disassemble_inline(std::uint32_t word) {
  std::string text = disassemble(word);
  for (auto& c : text)
    if (c == '\t')
      c = ' ';
  return text;
}

std::string_view register_name(unsigned r) {
  static constexpr std::string_view names[32] = {
      "r0",  "r1",  "pc",  "r3",  "sp",  "fp",  "r6",  "r7",  "rv",  "r9",  "rr1",
      "rr2", "r12", "r13", "r14", "rca", "r16", "r17", "r18", "r19", "r20", "r21",
      "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31"};
  return names[r & 31u];
}

std::string_view condition_name(unsigned cond) {
  static constexpr std::string_view names[16] = {"t",  "f",  "ugt", "ule", "ult", "uge",
                                                 "ne", "eq", "vc",  "vs",  "pl",  "mi",
                                                 "ge", "lt", "gt",  "le"};
  return names[cond & 15u];
}

} // namespace lanai::iss
