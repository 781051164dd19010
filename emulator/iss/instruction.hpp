// One decoded Lanai instruction: the operation class, its register and
// immediate fields already extracted, and the pre-expanded immediate the
// executor uses. Field meanings follow LLVM's Lanai instruction formats.
#pragma once

#include <cstdint>
#include <string_view>

namespace lanai::iss {

// Operation classes; each maps to one executor routine.
enum class OpClass : std::uint8_t {
  invalid,
  alu_ri,     // Rd <- Rs1 op imm (add/addc/sub/subb/and/or/xor)
  shift_ri,   // Rd <- Rs1 shifted by sign-extended imm (sh/sha)
  alu_rr,     // Rd <- Rs1 op Rs2 iff condition
  shift_rr,   // Rd <- Rs1 shifted by Rs2 iff condition
  select,     // Rd <- condition ? Rs1 : Rs2
  load_rm,    // Rd <- mem32[ea(Rs1, imm16)]
  store_rm,   // mem32[ea(Rs1, imm16)] <- Rd
  load_rrm,   // Rd <- mem[ea(Rs1 op Rs2)], part-word
  store_rrm,  // mem[ea(Rs1 op Rs2)] <- Rd, part-word
  load_spls,  // Rd <- mem[ea(Rs1, imm10)], half-word or byte
  store_spls, // mem[ea(Rs1, imm10)] <- Rd, half-word or byte
  load_sls,   // Rd <- mem32[absolute 21-bit address]
  store_sls,  // mem32[absolute 21-bit address] <- Rd
  load_imm,   // Rd <- zero-extended 21-bit constant (SLI)
  branch,     // if condition: pc <- absolute target (one delay slot)
  branch_rel, // if condition: pc <- pc + offset (one delay slot)
  set_cond,   // Rd <- condition ? 1 : 0
  popc,
  leadz,
  trailz,
};

// ALU operation codes as encoded in AAA/BBB fields.
enum AluOp : std::uint8_t {
  alu_add,
  alu_addc,
  alu_sub,
  alu_subb,
  alu_and,
  alu_or,
  alu_xor,
  alu_special
};

// Memory addressing modes from the P and Q bits.
enum AddrMode : std::uint8_t {
  addr_base = 0,   // ea = Rs1
  addr_post = 1,   // ea = Rs1, then Rs1 <- Rs1 op offset
  addr_offset = 2, // ea = Rs1 op offset
  addr_pre = 3,    // ea = Rs1 op offset, then Rs1 <- ea
};

// Instruction-class buckets of the cycle model.
enum class CostClass : std::uint8_t { alu, load, store, branch, count };

struct Instruction {
  std::uint32_t word = 0;
  OpClass op = OpClass::invalid;
  std::uint8_t rd = 0;
  std::uint8_t rs1 = 0;
  std::uint8_t rs2 = 0;
  std::uint8_t alu = 0;     // AluOp
  std::uint8_t cond = 0;    // DDDI condition code, 0..15
  std::uint8_t mode = 0;    // AddrMode for memory operations
  std::uint8_t width = 4;   // access width in bytes for memory operations
  bool set_flags = false;   // the `.f' forms
  bool zero_extend = false; // part-word loads
  bool arithmetic = false;  // arithmetic (sha) rather than logical (sh) shift
  bool reads_rd = false;    // stores read Rd as their data source
  bool writes_pc = false;   // a jump when it executes (Rd or an updated base is %pc)
  std::uint32_t imm = 0;    // expanded immediate / offset / absolute address
  CostClass cost = CostClass::alu;
};

// Register names as printed by LLVM ("%r0" .. "%r31" with aliases).
std::string_view register_name(unsigned reg);
// Condition names ("t", "f", "ugt", ...), indexed by DDDI.
std::string_view condition_name(unsigned cond);

inline constexpr unsigned reg_pc = 2;
inline constexpr unsigned reg_sp = 4;
inline constexpr unsigned reg_fp = 5;
inline constexpr unsigned reg_rv = 8;
inline constexpr unsigned reg_rca = 15;

} // namespace lanai::iss
