// Predecoding of blocks: each instruction becomes the operation for its
// common case (sub becomes an add of the negated immediate, a constant shift
// a plain shift of a fixed direction, SLS a word access at Rs1=r0 plus an
// address), with the cycles before it summed as the per-instruction model
// charges them. A block ends with a branch and its delay slot, or a load
// into the pc and its two.
#include "emulator/iss/block_builder.hpp"

#include <algorithm>

#include "emulator/iss/decoder.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

namespace {

constexpr std::uint32_t max_cost = 1u << 24;

// Registers the load-use interlock looks at (bit r), as Cpu::step does.
std::uint32_t interlock_reads(const Instruction& in) {
  std::uint32_t reads = 1u << in.rs1 | 1u << in.rs2;
  if (in.reads_rd)
    reads |= 1u << in.rd;
  return reads & ~1u;
}

bool reads_pc(const Instruction& in) { return (interlock_reads(in) >> reg_pc) & 1u; }

// A load (or SLI) into the pc that updates no base register: a jump with
// two delay slots, like a function's return `ld -4[%fp], %pc`.
bool loads_pc(const Instruction& in) {
  const bool updates_pc = (in.mode == addr_post || in.mode == addr_pre) && in.rs1 == reg_pc;
  return in.op != OpClass::invalid && in.cost == CostClass::load && in.rd == reg_pc && !updates_pc;
}

// Delay slots after the instruction when it jumps (0: it does not end a block).
std::uint32_t delay_slots(const Instruction& in) {
  if (in.op == OpClass::branch || in.op == OpClass::branch_rel)
    return 1;
  return loads_pc(in) ? 2 : 0;
}

// Whether the instruction may be part of a block: it decodes and writes the
// pc only as a branch or a load does (jumps through the ALU are stepped).
bool fits_block(const Instruction& in) {
  return in.op != OpClass::invalid && (!in.writes_pc || loads_pc(in));
}

// Writes to r0 and r1 go to the discarded register.
std::uint8_t written(unsigned r) { return r <= 1 ? reg_discard : static_cast<std::uint8_t>(r); }

void translate_alu_ri(const Instruction& in, BlockOp& op) {
  const bool f = in.set_flags;
  switch (in.alu) {
  case alu_add:
    op.kind = f ? OpKind::add_ri_f : OpKind::add_ri;
    op.alu = 0;
    break;
  case alu_sub:
    op.kind = f ? OpKind::add_ri_f : OpKind::add_ri;
    op.imm = f ? ~in.imm : 0u - in.imm;
    op.alu = 1;
    break;
  case alu_addc:
    op.kind = f ? OpKind::addc_ri_f : OpKind::addc_ri;
    break;
  case alu_subb:
    op.kind = f ? OpKind::addc_ri_f : OpKind::addc_ri;
    op.imm = ~in.imm;
    break;
  case alu_and:
    op.kind = f ? OpKind::logic_ri_f : OpKind::and_ri;
    break;
  case alu_or:
    op.kind = f ? OpKind::logic_ri_f : OpKind::or_ri;
    break;
  default:
    op.kind = f ? OpKind::logic_ri_f : OpKind::xor_ri;
    break;
  }
}

void translate_shift_ri(const Instruction& in, BlockOp& op) {
  if (in.set_flags) {
    op.kind = OpKind::shift_ri_f;
    return;
  }
  const auto n = static_cast<std::int32_t>(in.imm);
  if (n >= 0) {
    op.kind = OpKind::shl_ri;
    op.imm = static_cast<std::uint32_t>(n) & 31u;
  } else {
    op.kind = in.arithmetic ? OpKind::sar_ri : OpKind::shr_ri;
    op.imm = static_cast<std::uint32_t>(-static_cast<std::int64_t>(n)) & 31u;
  }
}

void translate_alu_rr(const Instruction& in, BlockOp& op) {
  op.kind = OpKind::alu_rr;
  if (in.cond != 0)
    return; // predicated
  if (!in.set_flags) {
    switch (in.alu) {
    case alu_add:
      op.kind = OpKind::add_rr;
      break;
    case alu_sub:
      op.kind = OpKind::sub_rr;
      break;
    case alu_and:
      op.kind = OpKind::and_rr;
      break;
    case alu_or:
      op.kind = OpKind::or_rr;
      break;
    case alu_xor:
      op.kind = OpKind::xor_rr;
      break;
    default:
      break;
    }
  } else if (in.alu == alu_add) {
    op.kind = OpKind::add_rr_f;
  } else if (in.alu == alu_sub) {
    op.kind = OpKind::sub_rr_f;
  }
}

void translate_memory(const Instruction& in, BlockOp& op, bool store, std::uint32_t sram_bytes) {
  const bool absolute = in.op == OpClass::load_sls || in.op == OpClass::store_sls;
  const bool word_access = absolute || ((in.op == OpClass::load_rm || in.op == OpClass::store_rm) &&
                                        (in.mode == addr_offset || in.mode == addr_base));
  if (word_access) {
    op.kind = store ? OpKind::store_word : OpKind::load_word;
    if (absolute) {
      op.rs1 = 0; // ea = imm
      // A register of the device window, known here: the executor skips
      // the address checks a computed address needs.
      if (in.imm >= sram_bytes && in.imm >= LANAI_MMIO_BASE && (in.imm & 3u) == 0)
        op.kind = store ? OpKind::store_device : OpKind::load_device;
    } else if (in.mode == addr_base) {
      op.imm = 0; // ea = Rs1
    }
    return;
  }
  op.kind = store ? OpKind::store : OpKind::load;
  if (in.op == OpClass::load_rrm || in.op == OpClass::store_rrm)
    op.bits |= op_rrm;
  if (in.mode == addr_post || in.mode == addr_pre)
    op.bits |= op_update;
  op.cond = written(in.rs1);
}

BlockOp translate(const Instruction& in, std::uint32_t pc, std::uint32_t sram_bytes) {
  BlockOp op;
  op.rd = written(in.rd);
  op.rd_read = in.rd;
  op.rs1 = in.rs1;
  op.rs2 = in.rs2;
  op.imm = in.imm;
  op.cond = in.cond;
  op.alu = in.alu;
  op.mode = in.mode;
  op.width = in.width;
  op.bits = static_cast<std::uint8_t>((in.set_flags ? op_set_flags : 0) |
                                      (in.zero_extend ? op_zero_extend : 0) |
                                      (in.arithmetic ? op_arithmetic : 0));
  switch (in.op) {
  case OpClass::alu_ri:
    translate_alu_ri(in, op);
    break;
  case OpClass::shift_ri:
    translate_shift_ri(in, op);
    break;
  case OpClass::alu_rr:
    translate_alu_rr(in, op);
    break;
  case OpClass::shift_rr:
    op.kind = OpKind::shift_rr;
    break;
  case OpClass::select:
    op.kind = OpKind::select;
    break;
  case OpClass::set_cond:
    op.kind = OpKind::set_cond;
    break;
  case OpClass::popc:
    op.kind = OpKind::popc;
    break;
  case OpClass::leadz:
    op.kind = OpKind::leadz;
    break;
  case OpClass::trailz:
    op.kind = OpKind::trailz;
    break;
  case OpClass::load_imm:
    op.kind = OpKind::load_imm;
    break;
  case OpClass::branch:
  case OpClass::branch_rel:
    op.kind = OpKind::branch;
    if (in.op == OpClass::branch_rel)
      op.imm = pc + in.imm;
    if (op.imm <= pc)
      op.bits |= op_backward;
    break;
  case OpClass::store_rm:
  case OpClass::store_rrm:
  case OpClass::store_spls:
  case OpClass::store_sls:
    translate_memory(in, op, true, sram_bytes);
    break;
  default:
    translate_memory(in, op, false, sram_bytes);
    break;
  }
  if (loads_pc(in)) {
    if (in.op == OpClass::load_imm) {
      op.kind = OpKind::jump_imm;
    } else {
      op.kind = OpKind::load_pc;
      if (in.op == OpClass::load_sls)
        op.mode = addr_offset; // Rs1 (r0) + the address
    }
  }
  if (reads_pc(in)) {
    op.then = op.kind;
    op.kind = OpKind::read_pc;
  }
  return op;
}

std::uint32_t word_at(const std::uint8_t* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

} // namespace

bool block_costs_supported(const CycleCosts& c) {
  return std::max({c.alu_cycles, c.load_cycles, c.store_cycles, c.branch_taken_cycles,
                   c.branch_untaken_cycles, c.load_use_stall_cycles}) <= max_cost;
}

Block build_block(std::uint32_t pc, const std::uint8_t* sram, std::uint32_t sram_bytes,
                  const CycleCosts& costs, std::vector<BlockOp>& ops, std::uint32_t* examined) {
  const std::uint32_t class_cost[] = {costs.alu_cycles, costs.load_cycles, costs.store_cycles,
                                      costs.branch_untaken_cycles};
  Block block;
  block.pc = pc;
  std::uint32_t start = 0, last_start = 0, loaded = 0;
  std::uint32_t read_to = pc; // the last word read
  auto word = [&](std::uint32_t at) {
    read_to = std::max(read_to, at);
    return decode(word_at(sram + at));
  };
  auto append = [&](const Instruction& in, std::uint32_t at) {
    BlockOp op = translate(in, at, sram_bytes);
    // A load into the pc always jumps, at a taken branch's cost and no interlock.
    const bool jump = loads_pc(in);
    std::uint32_t cost = jump ? costs.branch_taken_cycles : class_cost[static_cast<int>(in.cost)];
    if (block.count == 0)
      block.first_reads = jump ? 0 : interlock_reads(in);
    else if (!jump && (interlock_reads(in) >> loaded) & 1u)
      cost += costs.load_use_stall_cycles;
    op.start = start;
    op.loaded_before = static_cast<std::uint8_t>(loaded);
    ops.push_back(op);
    last_start = start;
    start += cost;
    loaded = in.cost == CostClass::load ? in.rd : 0;
    ++block.count;
  };
  for (std::uint32_t at = pc; at < sram_bytes && block.count < max_block_instructions; at += 4) {
    const Instruction in = word(at);
    if (!fits_block(in))
      break;
    const std::uint32_t slots = delay_slots(in);
    if (slots > 0) {
      // The jump and its delay slots, or none of them: slots that jump too are stepped.
      if (block.count + 1 + slots > max_block_instructions || at + 4 * slots >= sram_bytes)
        break;
      Instruction slot[2];
      bool plain = true;
      for (std::uint32_t i = 0; i < slots; ++i) {
        slot[i] = word(at + 4 + 4 * i);
        plain = plain && fits_block(slot[i]) && delay_slots(slot[i]) == 0;
      }
      if (!plain)
        break;
      append(in, at);
      for (std::uint32_t i = 0; i < slots; ++i)
        append(slot[i], at + 4 + 4 * i);
      block.delay_slots = slots;
      break;
    }
    append(in, at);
  }
  if (examined != nullptr)
    *examined = pc < sram_bytes ? (read_to - pc) / 4 + 1 : 0;
  if (block.count == 0)
    return block;
  block.end_pc = pc + 4 * block.count;
  block.last_pc = block.end_pc - 4;
  block.cycles = start;
  block.loaded_after = loaded;
  const std::int64_t taken_extra =
      block.delay_slots == 1 ? std::int64_t(costs.branch_taken_cycles) - costs.branch_untaken_cycles
                             : 0;
  block.taken_extra = static_cast<std::uint64_t>(taken_extra);
  block.max_start = last_start + static_cast<std::uint32_t>(std::max<std::int64_t>(0, taken_extra));
  ops.push_back(BlockOp{});
  return block;
}

Block prefix_block(const Block& block, std::uint32_t count, std::vector<BlockOp>& ops) {
  ops.assign(block.ops, block.ops + count);
  ops.push_back(BlockOp{});
  const BlockOp& next = block.ops[count];
  Block prefix;
  prefix.ops = ops.data();
  prefix.pc = block.pc;
  prefix.count = count;
  prefix.end_pc = block.pc + 4 * count;
  prefix.last_pc = prefix.end_pc - 4;
  prefix.cycles = next.start;
  prefix.max_start = block.ops[count - 1].start;
  prefix.first_reads = block.first_reads;
  prefix.loaded_after = next.loaded_before;
  return prefix;
}

} // namespace lanai::iss
