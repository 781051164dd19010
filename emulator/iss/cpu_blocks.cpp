// The block executor: runs cached blocks (block.hpp) back to back with
// threaded dispatch, flags and counters in locals, and the cycles of each
// block added once. It runs a block only if every instruction of it starts
// below both limits, so a run ends at exactly the instruction the reference
// path would end at. Whatever its operations do not handle on their own (a
// device register, a fault, a skip by the idle watch) makes it stop before
// that instruction with the state exactly as the reference path would have
// it there, and the instruction is stepped.
#include "emulator/iss/cpu.hpp"

#include "emulator/iss/cpu_arithmetic.hpp"
#include "emulator/iss/sram_order.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

// Out of line and cold: the executor's loop stays small.
[[gnu::noinline, gnu::cold]] const Block* Cpu::build_block_at(std::uint32_t pc) {
  const Block& block = blocks_.build(pc, sram_.get(), sram_bytes_, costs_);
  const std::uint32_t first = pc >> 2, words = BlockCache::words_covered(block);
  for (std::uint32_t index = first; index < first + words; ++index)
    code_[index] |= code_in_block;
  if (words > 0)
    note_code(first, first + words - 1);
  return &block;
}

namespace {

// A general memory operation's address: the computed one (Rs1 + imm, or Rs1
// op Rs2) written back by base-updating forms, and the one accessed (the
// computed one for offset and pre-update forms, Rs1 for post-update).
struct MemoryAddress {
  std::uint32_t computed;
  std::uint32_t accessed;
};

[[gnu::always_inline]] inline MemoryAddress
memory_address(const BlockOp* op, const std::uint32_t* regs, std::uint8_t flags) {
  const std::uint32_t base = regs[op->rs1];
  const std::uint32_t computed =
      op->bits & op_rrm
          ? address_value(op->alu, op->bits & op_arithmetic, base, regs[op->rs2], flags)
          : base + op->imm;
  return {computed, op->mode == addr_offset || op->mode == addr_pre ? computed : base};
}

} // namespace

// The cycle a register access of `op` is made at: the one its instruction
// starts at, before its interlock, as the stepper makes it.
[[gnu::always_inline]] inline std::uint64_t Cpu::access_cycle(const Block* block, const BlockOp* op,
                                                              std::uint64_t cycles,
                                                              std::uint32_t loaded) const {
  std::uint64_t at = cycles + op->start;
  if (op == block->ops && (block->first_reads >> loaded) & 1u)
    at -= costs_.load_use_stall_cycles;
  return at;
}

Cpu::BlockExit Cpu::run_blocks(std::uint64_t cycle_limit, std::uint64_t instruction_limit) {
  // In OpKind order.
  static const void* const dispatch[] = {
      &&op_end,        &&op_read_pc,     &&op_add_ri,       &&op_add_ri_f,   &&op_addc_ri,
      &&op_addc_ri_f,  &&op_and_ri,      &&op_or_ri,        &&op_xor_ri,     &&op_logic_ri_f,
      &&op_shl_ri,     &&op_shr_ri,      &&op_sar_ri,       &&op_shift_ri_f, &&op_add_rr,
      &&op_sub_rr,     &&op_and_rr,      &&op_or_rr,        &&op_xor_rr,     &&op_add_rr_f,
      &&op_sub_rr_f,   &&op_alu_rr,      &&op_shift_rr,     &&op_select,     &&op_set_cond,
      &&op_popc,       &&op_leadz,       &&op_trailz,       &&op_load_imm,   &&op_load_word,
      &&op_store_word, &&op_load_device, &&op_store_device, &&op_load,       &&op_store,
      &&op_branch,     &&op_load_pc,     &&op_jump_imm};
  static_assert(std::size(dispatch) == static_cast<std::size_t>(OpKind::count));

  std::uint32_t* const regs = regs_;
  std::uint8_t* const sram = sram_.get();
  const std::uint32_t sram_bytes = sram_bytes_;
  const std::uint16_t* const conds = cond_table_;
  const bool watch_branches = fast_forward_;
  std::uint8_t flags = flags_;
  const Block* const* const entries = blocks_.entries();
  std::uint64_t first_instruction = instructions_; // block instructions count from here
  std::uint64_t cycles = cycles_, instructions = instructions_;
  std::uint32_t loaded = loaded_reg_, pc = pc_, last_pc = regs_[reg_pc];
  BlockExit exit = BlockExit::step;

  const Block* block;
  const BlockOp* op;
  std::uint32_t next;               // the pc after the block: its end, or a taken branch's target
  std::uint32_t stored = 0;         // the word index of the last store
  std::uint32_t device_address = 0; // a device register accessed in place
  const DirectRegister* stable_direct = nullptr; // a stable one's direct read, if the bus has one
  const DirectRegister* clock_direct = nullptr;  // a clock's direct read
  std::uint32_t* staging_word = nullptr; // the device's word a staging register's store goes to
  bool device_store = false;
  // Accesses with side effects are made in place only on a bus that leaves
  // an unmapped register untouched, so that the stepper may make it again.
  const bool direct = bus_untouched_;

#define LANAI_DISPATCH() goto* dispatch[static_cast<unsigned>(op->kind)]
#define LANAI_NEXT()                                                                               \
  do {                                                                                             \
    ++op;                                                                                          \
    LANAI_DISPATCH();                                                                              \
  } while (0)
#define LANAI_HOLDS(cond) ((conds[flags] >> (cond)) & 1u)
// `at`: the cycle of the register access `op` makes; one past the access
// limit is deferred, the core left before `op`.
#define LANAI_ACCESS_AT(at)                                                                        \
  const std::uint64_t at = access_cycle(block, op, cycles, loaded);                                \
  if (at >= access_limit_) {                                                                       \
    exit = BlockExit::deferred;                                                                    \
    goto stop_before;                                                                              \
  }

enter:
  if (pc >= sram_bytes || (pc & 3u))
    goto leave; // the stepper reports the fetch fault
  block = entries[pc >> 2];
  if (block == nullptr)
    block = build_block_at(pc);
  if (block->count == 0)
    goto leave;
  {
    // Inside a block, `cycles` is the cycle its first instruction starts
    // at, after an interlock with the last block's load.
    const std::uint64_t stall =
        (block->first_reads >> loaded) & 1u ? costs_.load_use_stall_cycles : 0;
    if (cycles + stall + block->max_start >= cycle_limit ||
        instruction_limit - instructions < block->count) {
      // Not all of it fits: the instructions that start below both limits,
      // up to its jump (which needs its delay slots), run as a block of
      // their own. The first starts at `cycles`, before its interlock.
      std::uint32_t fit = 0;
      if (cycles < cycle_limit && instructions < instruction_limit) {
        const std::uint32_t before_jump =
            block->delay_slots > 0 ? block->count - 1 - block->delay_slots : block->count;
        const std::uint64_t most =
            std::min<std::uint64_t>(before_jump, instruction_limit - instructions);
        fit = most > 0 ? 1 : 0;
        while (fit < most && cycles + stall + block->ops[fit].start < cycle_limit)
          ++fit;
      }
      if (fit == 0) {
        exit = BlockExit::near_limit;
        goto leave;
      }
      if (fit < block->count) // all of it, if only the interlock seemed not to fit
        block = &blocks_.prefix(*block, fit);
    }
    cycles += stall;
  }
  next = block->end_pc;
  op = block->ops;
  LANAI_DISPATCH();

op_end:
  cycles += block->cycles;
  instructions += block->count;
  loaded = block->loaded_after;
  last_pc = block->last_pc;
  pc = next;
  if (exit == BlockExit::stop) // the block's last instruction ended the run
    goto leave;
  goto enter;

op_read_pc:
  regs[reg_pc] = block->pc + 4 * static_cast<std::uint32_t>(op - block->ops);
  goto* dispatch[static_cast<unsigned>(op->then)];

op_add_ri:
  regs[op->rd] = regs[op->rs1] + op->imm;
  LANAI_NEXT();
op_add_ri_f:
  regs[op->rd] = add_setting_flags(regs[op->rs1], op->imm, op->alu, flags);
  LANAI_NEXT();
op_addc_ri:
  regs[op->rd] = regs[op->rs1] + op->imm + (flags & flag_c);
  LANAI_NEXT();
op_addc_ri_f:
  regs[op->rd] = add_setting_flags(regs[op->rs1], op->imm, flags & flag_c, flags);
  LANAI_NEXT();
op_and_ri:
  regs[op->rd] = regs[op->rs1] & op->imm;
  LANAI_NEXT();
op_or_ri:
  regs[op->rd] = regs[op->rs1] | op->imm;
  LANAI_NEXT();
op_xor_ri:
  regs[op->rd] = regs[op->rs1] ^ op->imm;
  LANAI_NEXT();
op_logic_ri_f:
  regs[op->rd] = alu_value(op->alu, regs[op->rs1], op->imm, true, flags);
  LANAI_NEXT();
op_shl_ri:
  regs[op->rd] = regs[op->rs1] << op->imm;
  LANAI_NEXT();
op_shr_ri:
  regs[op->rd] = regs[op->rs1] >> op->imm;
  LANAI_NEXT();
op_sar_ri:
  regs[op->rd] = static_cast<std::uint32_t>(static_cast<std::int32_t>(regs[op->rs1]) >> op->imm);
  LANAI_NEXT();
op_shift_ri_f:
  regs[op->rd] = shift_value(regs[op->rs1], op->imm, op->bits & op_arithmetic, true, flags);
  LANAI_NEXT();
op_add_rr:
  regs[op->rd] = regs[op->rs1] + regs[op->rs2];
  LANAI_NEXT();
op_sub_rr:
  regs[op->rd] = regs[op->rs1] - regs[op->rs2];
  LANAI_NEXT();
op_and_rr:
  regs[op->rd] = regs[op->rs1] & regs[op->rs2];
  LANAI_NEXT();
op_or_rr:
  regs[op->rd] = regs[op->rs1] | regs[op->rs2];
  LANAI_NEXT();
op_xor_rr:
  regs[op->rd] = regs[op->rs1] ^ regs[op->rs2];
  LANAI_NEXT();
op_add_rr_f:
  regs[op->rd] = add_setting_flags(regs[op->rs1], regs[op->rs2], 0, flags);
  LANAI_NEXT();
op_sub_rr_f:
  regs[op->rd] = add_setting_flags(regs[op->rs1], ~regs[op->rs2], 1, flags);
  LANAI_NEXT();
op_alu_rr:
  if (!LANAI_HOLDS(op->cond)) {
    // As Cpu::skip_predicated: a `.f' form sets Z and N from the unchanged Rd.
    if (op->bits & op_set_flags)
      flags = nz_flags(regs[op->rd_read]);
    LANAI_NEXT();
  }
  regs[op->rd] = alu_value(op->alu, regs[op->rs1], regs[op->rs2], op->bits & op_set_flags, flags);
  LANAI_NEXT();
op_shift_rr:
  if (!LANAI_HOLDS(op->cond)) {
    if (op->bits & op_set_flags)
      flags = nz_flags(regs[op->rd_read]);
    LANAI_NEXT();
  }
  regs[op->rd] = shift_value(regs[op->rs1], regs[op->rs2], op->bits & op_arithmetic,
                             op->bits & op_set_flags, flags);
  LANAI_NEXT();
op_select:
  regs[op->rd] = LANAI_HOLDS(op->cond) ? regs[op->rs1] : regs[op->rs2];
  LANAI_NEXT();
op_set_cond:
  regs[op->rd] = LANAI_HOLDS(op->cond);
  LANAI_NEXT();
op_popc:
  regs[op->rd] = static_cast<std::uint32_t>(__builtin_popcount(regs[op->rs1]));
  LANAI_NEXT();
op_leadz : {
  const std::uint32_t v = regs[op->rs1];
  regs[op->rd] = v ? static_cast<std::uint32_t>(__builtin_clz(v)) : 32u;
  LANAI_NEXT();
}
op_trailz : {
  const std::uint32_t v = regs[op->rs1];
  regs[op->rd] = v ? static_cast<std::uint32_t>(__builtin_ctz(v)) : 32u;
  LANAI_NEXT();
}
op_load_imm:
  regs[op->rd] = op->imm;
  LANAI_NEXT();

op_load_word : {
  const std::uint32_t ea = regs[op->rs1] + op->imm;
  if (ea >= sram_bytes || (ea & 3u)) { // a device register or a fault
    if (ea >= LANAI_MMIO_BASE && !(ea & 3u)) {
      device_address = ea;
      goto device_load;
    }
    goto stop_before;
  }
  regs[op->rd] = load_be32(sram + ea);
  LANAI_NEXT();
}
op_load_device:
  device_address = op->imm;
device_load : {
  if (bus_ == nullptr)
    goto stop_before;
  const RegisterKinds::Entry& reg = registers_.entry(device_address);
  if (reg.stable()) {
    stable_direct = reg.direct.read != nullptr ? &reg.direct : nullptr;
    goto stable_read;
  }
  if (reg.direct.read_clock != nullptr) {
    clock_direct = &reg.direct;
    goto clock_read;
  }
  if (direct) {
    device_store = false;
    goto device_access;
  }
  goto stop_before;
}
device_access : {
  // A register access with a side effect (a pop, a latch, a DMA engine's
  // GO), made as the stepper makes it (Cpu::mmio_access), wait states and
  // all; the access may end the run.
  LANAI_ACCESS_AT(at);
  std::uint32_t value = device_store ? regs[op->rd_read] : 0;
  const std::uint64_t writes_before = outside_writes_, mark = cycles_;
  const MmioStatus status =
      device_store ? bus_->write(device_address, at, value) : bus_->read(device_address, at, value);
  if (status == MmioStatus::unmapped)
    goto stop_before;
  cycles += cycles_ - mark; // wait states the device added (add_stall_cycles)
  cycles_ = mark;
  if (status == MmioStatus::halt)
    state_ = StopReason::halted;
  if (!device_store && watch_.clean() && registers_.clock(device_address))
    watch_.note_clock(device_address, at, value);
  else
    watch_.taint();
  if (!device_store) {
    regs[op->rd] = value;
    cycles += std::uint64_t{costs_.mmio_cycles} - costs_.load_cycles;
  } else if (device_address < LANAI_TRACE_PORT_FIRST || device_address > LANAI_TRACE_PORT_LAST) {
    // The instrumentation port costs what an SRAM store costs.
    cycles += std::uint64_t{costs_.mmio_cycles} - costs_.store_cycles;
  }
  if (outside_writes_ != writes_before)
    goto changed_by_access;
  goto accessed;
}
staging_store : {
  // A store to a staging register, made as device_access makes it but
  // straight into the device's word (MmioBus::direct_register): nothing
  // else happens, so nothing can end the run or change the core.
  LANAI_ACCESS_AT(at);
  *staging_word = regs[op->rd_read];
  watch_.taint();
  if (device_address < LANAI_TRACE_PORT_FIRST || device_address > LANAI_TRACE_PORT_LAST)
    cycles += std::uint64_t{costs_.mmio_cycles} - costs_.store_cycles;
  goto accessed_quietly;
}
accessed:
  // As step(): a halt or a yield ends the run after the access, unless the
  // driver finds the run's limits unchanged by what the access started (a
  // yield it would answer with the same limits). The access takes a
  // device's time, not a load's or a store's: every later instruction
  // starts that much later, and one may now start past the limit.
  if (state_ != StopReason::cycle_limit ||
      (yield_ && (yield_check_ == nullptr || !yield_check_(yield_driver_)))) {
    exit = BlockExit::stop;
    goto after_access;
  }
  yield_ = false;
  if (cycles + block->max_start >= cycle_limit)
    goto after_access;
  LANAI_NEXT();
accessed_quietly:
  // An access with no effect but its time (a staging word, a stable
  // register, a clock) halts nothing and asks for no yield, and none is
  // pending inside a run of blocks: only the limit is left to check.
  if (cycles + block->max_start >= cycle_limit)
    goto after_access;
  LANAI_NEXT();
changed_by_access:
  // A device wrote the core's memory or registers during the access: the
  // rest of the block may be stale, so it is left after the access.
  if (yield_ || state_ != StopReason::cycle_limit)
    exit = BlockExit::stop;
after_access:
  ++op;
  if (op->kind == OpKind::end)
    goto op_end;
  goto stop_before;
stable_read : {
  // A device register read with no side effect, done here as the stepper
  // would do it (Cpu::mmio_access): at the cycle the instruction starts,
  // before its interlock; a refusal is left to the stepper, which reads
  // again and faults or halts.
  LANAI_ACCESS_AT(at);
  std::uint32_t value = 0;
  if (stable_direct != nullptr)
    value = stable_direct->read(stable_direct->owner);
  else if (bus_->read(device_address, at, value) != MmioStatus::ok)
    goto stop_before;
  if (watch_.clean())
    watch_.note_read(device_address, value);
  regs[op->rd] = value;
  cycles += std::uint64_t{costs_.mmio_cycles} - costs_.load_cycles;
  goto accessed_quietly;
}
clock_read : {
  // A read of a clock with a direct form, made as device_access makes it
  // but without the bus: the clock adds no time, halts nothing, writes
  // nothing the core holds and cannot be unmapped.
  LANAI_ACCESS_AT(at);
  const std::uint32_t value = clock_direct->read_clock(clock_direct->clock_owner, at);
  if (watch_.clean())
    watch_.note_clock(device_address, at, value);
  regs[op->rd] = value;
  cycles += std::uint64_t{costs_.mmio_cycles} - costs_.load_cycles;
  goto accessed_quietly;
}
op_store_word : {
  const std::uint32_t ea = regs[op->rs1] + op->imm;
  if (ea >= sram_bytes || (ea & 3u)) {
    if (ea >= LANAI_MMIO_BASE && !(ea & 3u)) {
      device_address = ea;
      goto device_store_at;
    }
    goto stop_before;
  }
  if (watch_.clean())
    watch_.note_store(ea, 4, load_be32(sram + ea));
  store_be32(sram + ea, regs[op->rd_read]);
  stored = ea >> 2;
  if (code_[stored])
    goto code_changed;
  LANAI_NEXT();
}
op_store_device:
  device_address = op->imm;
device_store_at:
  if (!direct)
    goto stop_before;
  device_store = true;
  staging_word = registers_.entry(device_address).direct.word;
  if (staging_word != nullptr)
    goto staging_store;
  goto device_access;
op_load : {
  const auto [computed, ea] = memory_address(op, regs, flags);
  if (ea >= sram_bytes || (ea & (op->width - 1u)))
    goto stop_before;
  const std::uint32_t value = read_part(sram + ea, op->width, op->bits & op_zero_extend);
  if (op->bits & op_update)
    regs[op->cond] = computed;
  regs[op->rd] = value; // after the update: a load into the base register wins
  LANAI_NEXT();
}
op_store : {
  const auto [computed, ea] = memory_address(op, regs, flags);
  const std::uint32_t width = op->width;
  if (ea >= sram_bytes || (ea & (width - 1u)))
    goto stop_before;
  std::uint8_t* p = sram + ea;
  if (watch_.clean())
    watch_.note_store(ea, width, read_before(p, width));
  const std::uint32_t v = regs[op->rd_read]; // the old base, if it is also the data
  if (width == 4) {
    store_be32(p, v);
  } else if (width == 2) {
    p[0] = static_cast<std::uint8_t>(v >> 8);
    p[1] = static_cast<std::uint8_t>(v);
  } else {
    p[0] = static_cast<std::uint8_t>(v);
  }
  if (op->bits & op_update)
    regs[op->cond] = computed;
  stored = ea >> 2;
  if (code_[stored])
    goto code_changed;
  LANAI_NEXT();
}

op_branch:
  if (!LANAI_HOLDS(op->cond))
    LANAI_NEXT();
  next = op->imm;
  cycles += block->taken_extra; // the delay slot and the block's end come later
  if ((op->bits & op_backward) && watch_branches) {
    // The idle watch sees the state the reference path has right after the
    // branch: its delay slot next, then the target. (`cycles` counts the
    // branch as taken, its start offset as untaken.)
    const auto index = static_cast<std::uint32_t>(op - block->ops);
    const std::uint32_t at = block->pc + 4 * index;
    const std::uint64_t after = cycles + op->start + costs_.branch_untaken_cycles;
    const WatchAction action = watch_action(at, cycle_limit, after);
    if (action == WatchAction::none)
      LANAI_NEXT();
    cycles_ = after;
    instructions_ = instructions + index + 1;
    pc_ = at + 4;
    npc_ = next;
    nnpc_ = next + 4;
    loaded_reg_ = 0;
    regs_[reg_pc] = at;
    flags_ = flags;
    watch_backward_branch(action, at, cycle_limit, instruction_limit);
    if (cycles_ != after) {
      // Laps skipped: the core stands after the branch again, that many
      // cycles and instructions later (a clock lap's registers and flags
      // moved on too). The delay slot, the block's last instruction, runs
      // here if it starts within the limits; otherwise it is stepped.
      const std::uint64_t done = instructions + index + 1;
      if (op[2].kind != OpKind::end || cycles_ >= cycle_limit ||
          instructions_ >= instruction_limit || loaded_reg_ != 0) {
        block_instructions_ += done - first_instruction;
        return BlockExit::step;
      }
      cycles += cycles_ - after;
      instructions += instructions_ - done;
      first_instruction += instructions_ - done;
      flags = flags_;
    }
  }
  LANAI_NEXT();

op_load_pc : {
  const auto [computed, ea] = memory_address(op, regs, flags);
  if (ea >= sram_bytes || (ea & (op->width - 1u)))
    goto stop_before;
  next = read_part(sram + ea, op->width, op->bits & op_zero_extend);
  if (op->bits & op_update)
    regs[op->cond] = computed;
  LANAI_NEXT();
}
op_jump_imm:
  next = op->imm;
  LANAI_NEXT();

code_changed:
  // A store into a word a block was built from: blocks over it are dropped
  // and execution goes on from freshly built ones after this instruction.
  code_written(stored);
  ++op;
  if (op->kind == OpKind::end)
    goto op_end;
  goto stop_before;

stop_before : {
  // Leaves the state as the reference path has it before `op`.
  const auto index = static_cast<std::uint32_t>(op - block->ops);
  pc = block->pc + 4 * index;
  if (index > 0) {
    cycles += op->start;
    loaded = op->loaded_before;
    last_pc = pc - 4;
  } else if ((block->first_reads >> loaded) & 1u) {
    cycles -= costs_.load_use_stall_cycles; // the stepper adds the interlock itself
  }
  instructions += index;
  pc_ = pc;
  npc_ = pc + 4;
  nnpc_ = pc + 8;
  if (index == block->count - 1) { // the last delay slot, if any: `next` follows
    npc_ = next;
    nnpc_ = next + 4;
  } else if (index == block->count - 2 && block->delay_slots == 2) { // a load's first slot
    nnpc_ = next;
  }
  cycles_ = cycles;
  instructions_ = instructions;
  loaded_reg_ = loaded;
  flags_ = flags;
  regs_[reg_pc] = last_pc;
  block_instructions_ += instructions - first_instruction;
  return exit;
}

leave:
  pc_ = pc;
  npc_ = pc + 4;
  nnpc_ = pc + 8;
  cycles_ = cycles;
  instructions_ = instructions;
  loaded_reg_ = loaded;
  flags_ = flags;
  regs_[reg_pc] = last_pc;
  block_instructions_ += instructions - first_instruction;
  return exit;

#undef LANAI_DISPATCH
#undef LANAI_NEXT
#undef LANAI_HOLDS
#undef LANAI_ACCESS_AT
}

} // namespace lanai::iss
