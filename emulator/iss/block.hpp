// A predecoded basic block: a straight run of instructions from one entry
// address, each translated into an operation specialised for its common
// case, with the cycles of the run summed ahead. A block ends after the
// delay slot of its first branch or the two of a load into the pc, before
// any other instruction that writes the pc or does not decode, or at a
// length limit.
#pragma once

#include <cstdint>

namespace lanai::iss {

// One executor routine each (cpu_blocks.cpp); `_f` forms set the flags.
enum class OpKind : std::uint8_t {
  end,      // past the last instruction: account for the block, go on
  read_pc,  // %pc's register <- this instruction's address, then `then`
  add_ri,   // Rd <- Rs1 + imm (sub stores the negated immediate)
  add_ri_f, // Rd <- Rs1 + imm + carry_in, flags (sub: ~imm and 1)
  addc_ri,  // Rd <- Rs1 + imm + C (subb: ~imm)
  addc_ri_f,
  and_ri,
  or_ri,
  xor_ri,
  logic_ri_f, // and/or/xor by `alu`, N and Z
  shl_ri,     // Rd <- Rs1 << imm
  shr_ri,     // Rd <- Rs1 >> imm, logical
  sar_ri,     // Rd <- Rs1 >> imm, arithmetic
  shift_ri_f, // any immediate shift that sets the flags
  add_rr,
  sub_rr,
  and_rr,
  or_rr,
  xor_rr,
  add_rr_f,
  sub_rr_f,
  alu_rr,   // any other RR ALU operation, predicated or not
  shift_rr, // RR shifts, predicated or not
  select,
  set_cond,
  popc,
  leadz,
  trailz,
  load_imm,
  load_word,    // Rd <- mem32[Rs1 + imm] (RM offset and base modes, SLS)
  store_word,   // mem32[Rs1 + imm] <- Rd
  load_device,  // Rd <- the device register at imm (an absolute word address past SRAM)
  store_device, // the device register at imm <- Rd
  load,         // any other load: widths, extensions, RRM operators, base update
  store,        // any other store
  branch,       // if condition: next pc <- imm (absolute, relative ones resolved)
  load_pc,      // next pc <- a load (as `load`), two delay slots
  jump_imm,     // next pc <- imm (SLI into the pc), two delay slots
  count
};

// The register operations write in place of r0 and r1 (the core's 33rd).
inline constexpr std::uint8_t reg_discard = 32;

struct BlockOp {
  OpKind kind = OpKind::end;
  std::uint8_t rd = 0; // the register written (reg_discard for r0 and r1)
  std::uint8_t rs1 = 0;
  std::uint8_t rs2 = 0;
  std::uint32_t imm = 0;   // immediate, offset, absolute address or branch target
  std::uint32_t start = 0; // cycles from the block's first instruction to this one
  std::uint8_t cond = 0;   // condition code; memory operations: the register a base update writes
  std::uint8_t alu = 0;    // AluOp; add_ri_f and addc: the carry in
  std::uint8_t mode = 0;   // memory: AddrMode
  std::uint8_t bits = 0;   // see the op_* flags below
  std::uint8_t width = 4;  // memory access width in bytes
  std::uint8_t loaded_before = 0; // the register loaded by the instruction before (0: none)
  OpKind then = OpKind::end;      // read_pc: the operation itself
  std::uint8_t rd_read = 0;       // the register read as Rd: a store's data, a skipped `.f' op's Rd
};

inline constexpr std::uint8_t op_set_flags = 1;
inline constexpr std::uint8_t op_zero_extend = 2;
inline constexpr std::uint8_t op_arithmetic = 4;
inline constexpr std::uint8_t op_backward = 8; // a branch to itself or before
inline constexpr std::uint8_t op_rrm = 16;     // the address is Rs1 op Rs2
inline constexpr std::uint8_t op_update = 32;  // the base register is updated

struct Block {
  const BlockOp* ops = nullptr;   // count operations and an `end`
  std::uint32_t pc = 0;           // address of the first instruction
  std::uint32_t count = 0;        // instructions; 0: the entry must be stepped
  std::uint32_t end_pc = 0;       // address after the last instruction
  std::uint32_t last_pc = 0;      // address of the last instruction
  std::uint32_t cycles = 0;       // all of them, a branch untaken
  std::uint32_t max_start = 0;    // latest start of the last one, after the entry
  std::uint32_t first_reads = 0;  // registers the first instruction reads (bit r)
  std::uint32_t loaded_after = 0; // the register the last one loads (0: none)
  std::uint32_t delay_slots = 0;  // of the jump that ends it: 1 a branch, 2 a load into the pc
  std::uint64_t taken_extra = 0;  // a taken branch's cycles over an untaken one's (mod 2^64)
};

// A lap of a loop that is one block, ended by its backward branch and the
// branch's delay slot, begins where the core stands after the branch: its
// first instruction is the delay slot, the block's last, and the block
// follows from its start. The position in the block of the lap's `step`th
// instruction (from 0), for a block of `count` instructions.
constexpr std::uint32_t lap_position(std::uint32_t step, std::uint32_t count) {
  return step == 0 ? count - 1 : step - 1;
}

} // namespace lanai::iss
