// The reference execution of one instruction and the run loop around it:
// the fetch queue that models the delay slots (one after a branch or an ALU
// write to pc, two after a load into pc), the cycle model, effective
// addresses with pre/post update, big-endian part-word SRAM access and
// full-word device register access through the MMIO bus. The run loop hands
// straight runs of code to the block executor (cpu_blocks.cpp) and steps
// what blocks leave: jumps, device accesses, faults, the ends of runs.
#include "emulator/iss/cpu.hpp"

#include <algorithm>

#include "emulator/iss/cpu_arithmetic.hpp"
#include "emulator/iss/decoder.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

// Defined here, next to the loop, so the compiler can inline them.
inline const Instruction& Cpu::fetch(std::uint32_t pc) {
  const std::uint32_t index = pc >> 2;
  if (!(code_[index] & code_decoded)) {
    const std::uint8_t* p = &sram_[pc];
    decoded_[index] = decode(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 |
                             std::uint32_t(p[2]) << 8 | p[3]);
    code_[index] |= code_decoded;
    note_code(index, index);
  }
  return decoded_[index];
}

inline void Cpu::write_reg(unsigned r, std::uint32_t v, bool from_load) {
  if (r > reg_pc + 0u) {
    regs_[r] = v;
    return;
  }
  if (r != reg_pc)
    return; // r0 and r1 are constants
  if (from_load) {
    nnpc_ = v;
  } else {
    npc_ = v;
    nnpc_ = v + 4;
  }
}

bool Cpu::mmio_access(const Instruction& in, std::uint32_t pc, std::uint32_t ea,
                      std::uint32_t* value, bool is_store) {
  if (cycles_ >= access_limit_) {
    deferred_ = true; // not made: step() undoes the instruction's start
    return false;
  }
  if (in.width != 4) {
    raise(FaultKind::register_width, in, pc, ea, in.width, is_store);
    return false;
  }
  // A clock's read is noted apart (a lap waiting on the clock may still be
  // skipped); any other access but a stable read taints the lap.
  const bool clock = watch_.clean() && !is_store && registers_.clock(ea);
  if (watch_.clean() && !clock && (is_store || !registers_.stable(ea)))
    watch_.taint();
  const MmioStatus status = bus_ == nullptr ? MmioStatus::unmapped
                            : is_store      ? bus_->write(ea, cycles_, *value)
                                            : bus_->read(ea, cycles_, *value);
  if (clock && status == MmioStatus::ok)
    watch_.note_clock(ea, cycles_, *value);
  else if (watch_.clean() && status == MmioStatus::ok)
    watch_.note_read(ea, *value);
  if (status == MmioStatus::unmapped) {
    raise(FaultKind::unmapped_register, in, pc, ea, in.width, is_store);
    return false;
  }
  if (status == MmioStatus::halt)
    state_ = StopReason::halted;
  // A store to the instrumentation port costs what an SRAM store costs, so
  // that traced firmware keeps its timing.
  const bool trace_port = is_store && ea >= LANAI_TRACE_PORT_FIRST && ea <= LANAI_TRACE_PORT_LAST;
  if (!trace_port) {
    cycles_ += costs_.mmio_cycles;
    cycles_ -= class_cost_[static_cast<int>(in.cost)];
  }
  return true;
}

bool Cpu::load(const Instruction& in, std::uint32_t pc, std::uint32_t ea, std::uint32_t& out) {
  const std::uint32_t width = in.width;
  if (ea & (width - 1)) {
    raise(FaultKind::misaligned_access, in, pc, ea, width, false);
    return false;
  }
  if (ea < sram_bytes_) {
    const std::uint8_t* p = &sram_[ea];
    if (width == 4) {
      out = std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
    } else if (width == 2) {
      const std::uint32_t h = std::uint32_t(p[0]) << 8 | p[1];
      out = in.zero_extend ? h : static_cast<std::uint32_t>(static_cast<std::int16_t>(h));
    } else {
      out = in.zero_extend ? p[0] : static_cast<std::uint32_t>(static_cast<std::int8_t>(p[0]));
    }
    return true;
  }
  if (ea >= LANAI_MMIO_BASE)
    return mmio_access(in, pc, ea, &out, false);
  raise(FaultKind::bus_error, in, pc, ea, width, false);
  return false;
}

bool Cpu::store(const Instruction& in, std::uint32_t pc, std::uint32_t ea, std::uint32_t v) {
  const std::uint32_t width = in.width;
  if (ea & (width - 1)) {
    raise(FaultKind::misaligned_access, in, pc, ea, width, true);
    return false;
  }
  if (ea < sram_bytes_) {
    std::uint8_t* p = &sram_[ea];
    if (watch_.clean()) {
      std::uint32_t before = 0;
      for (std::uint32_t i = 0; i < width; ++i)
        before = before << 8 | p[i];
      watch_.note_store(ea, width, before);
    }
    if (width == 4) {
      p[0] = std::uint8_t(v >> 24);
      p[1] = std::uint8_t(v >> 16);
      p[2] = std::uint8_t(v >> 8);
      p[3] = std::uint8_t(v);
    } else if (width == 2) {
      p[0] = std::uint8_t(v >> 8);
      p[1] = std::uint8_t(v);
    } else {
      p[0] = std::uint8_t(v);
    }
    if (code_[ea >> 2])
      code_written(ea >> 2); // self-modifying code re-decodes
    return true;
  }
  if (ea >= LANAI_MMIO_BASE)
    return mmio_access(in, pc, ea, &v, true);
  raise(FaultKind::bus_error, in, pc, ea, width, true);
  return false;
}

bool Cpu::execute_memory(const Instruction& in, std::uint32_t pc) {
  std::uint32_t ea;
  bool update = false;
  std::uint32_t updated = 0;
  switch (in.op) {
  case OpClass::load_sls:
  case OpClass::store_sls:
    ea = in.imm;
    break;
  default: {
    const std::uint32_t base = regs_[in.rs1];
    const std::uint32_t computed =
        (in.op == OpClass::load_rrm || in.op == OpClass::store_rrm)
            ? address_value(in.alu, in.arithmetic, base, regs_[in.rs2], flags_)
            : base + in.imm;
    ea = (in.mode == addr_offset || in.mode == addr_pre) ? computed : base;
    update = in.mode == addr_post || in.mode == addr_pre;
    updated = computed;
  }
  }
  const bool is_store = in.op == OpClass::store_rm || in.op == OpClass::store_rrm ||
                        in.op == OpClass::store_spls || in.op == OpClass::store_sls;
  std::uint32_t value = 0;
  if (is_store) {
    if (!store(in, pc, ea, regs_[in.rd]))
      return false;
  } else if (!load(in, pc, ea, value)) {
    return false;
  }
  if (update)
    write_reg(in.rs1, updated, false);
  if (!is_store) {
    write_reg(in.rd, value, true);
    loaded_reg_ = in.rd;
  }
  return true;
}

void Cpu::skip_predicated(const Instruction& in) {
  // A register-register operation whose condition fails leaves Rd as it
  // was; its `.f' form still sets Z and N from that (unchanged) Rd. LLVM
  // relies on this: it folds a later compare-with-zero of Rd into a
  // predicated `.f' instruction (e.g. `or.f.eq %r17, %r20, %r17; bne').
  if (!in.set_flags)
    return;
  flags_ = nz_flags(regs_[in.rd]);
}

[[gnu::always_inline]] inline bool Cpu::step(std::uint64_t cycle_limit,
                                             std::uint64_t instruction_limit) {
  const std::uint32_t pc = pc_;
  if (pc >= sram_bytes_ || (pc & 3u)) {
    Instruction none;
    raise(FaultKind::fetch_error, none, pc, pc, 0, false);
    return false;
  }
  const Instruction& in = fetch(pc);
  const std::uint64_t started = cycles_;
  const std::uint32_t saved_pc_reg = regs_[reg_pc], saved_loaded = loaded_reg_;
  regs_[reg_pc] = pc;
  std::uint32_t cost = class_cost_[static_cast<int>(in.cost)];
  if (loaded_reg_ != 0) {
    if (in.rs1 == loaded_reg_ || in.rs2 == loaded_reg_ || (in.reads_rd && in.rd == loaded_reg_))
      cost += costs_.load_use_stall_cycles;
    loaded_reg_ = 0;
  }
  const std::uint32_t saved_npc = npc_, saved_nnpc = nnpc_;
  pc_ = npc_;
  npc_ = nnpc_;
  nnpc_ = npc_ + 4;
  bool jumped = in.writes_pc; // branches decide below
  bool backward = false;      // a taken branch to this address or before
  switch (in.op) {
  case OpClass::alu_ri:
    write_reg(in.rd, alu_value(in.alu, regs_[in.rs1], in.imm, in.set_flags, flags_), false);
    break;
  case OpClass::shift_ri:
    write_reg(in.rd, shift_value(regs_[in.rs1], in.imm, in.arithmetic, in.set_flags, flags_),
              false);
    break;
  case OpClass::alu_rr:
    if (!condition(in.cond)) {
      skip_predicated(in);
      jumped = false;
      break;
    }
    write_reg(in.rd, alu_value(in.alu, regs_[in.rs1], regs_[in.rs2], in.set_flags, flags_), false);
    break;
  case OpClass::shift_rr:
    if (!condition(in.cond)) {
      skip_predicated(in);
      jumped = false;
      break;
    }
    write_reg(in.rd, shift_value(regs_[in.rs1], regs_[in.rs2], in.arithmetic, in.set_flags, flags_),
              false);
    break;
  case OpClass::select:
    write_reg(in.rd, condition(in.cond) ? regs_[in.rs1] : regs_[in.rs2], false);
    break;
  case OpClass::set_cond:
    write_reg(in.rd, condition(in.cond) ? 1u : 0u, false);
    break;
  case OpClass::popc:
    write_reg(in.rd, static_cast<std::uint32_t>(__builtin_popcount(regs_[in.rs1])), false);
    break;
  case OpClass::leadz: {
    const std::uint32_t v = regs_[in.rs1];
    write_reg(in.rd, v ? static_cast<std::uint32_t>(__builtin_clz(v)) : 32u, false);
    break;
  }
  case OpClass::trailz: {
    const std::uint32_t v = regs_[in.rs1];
    write_reg(in.rd, v ? static_cast<std::uint32_t>(__builtin_ctz(v)) : 32u, false);
    break;
  }
  case OpClass::load_imm:
    // SLI has the timing of a load: two delay slots when it writes the
    // pc, and the load-use interlock.
    write_reg(in.rd, in.imm, true);
    loaded_reg_ = in.rd;
    break;
  case OpClass::branch:
    if (condition(in.cond)) {
      npc_ = in.imm;
      nnpc_ = in.imm + 4;
      jumped = true;
      backward = in.imm <= pc;
    }
    break;
  case OpClass::branch_rel:
    if (condition(in.cond)) {
      npc_ = pc + in.imm;
      nnpc_ = npc_ + 4;
      jumped = true;
      backward = npc_ <= pc;
    }
    break;
  case OpClass::invalid:
    raise(FaultKind::undefined_instruction, in, pc, pc, 0, false);
    break;
  default:
    execute_memory(in, pc);
    break;
  }
  if (state_ == StopReason::fault) {
    pc_ = pc;
    npc_ = saved_npc;
    nnpc_ = saved_nnpc;
    return false;
  }
  if (deferred_) {
    // The access lies past the access limit: the instruction never started.
    deferred_ = false;
    pc_ = pc;
    npc_ = saved_npc;
    nnpc_ = saved_nnpc;
    regs_[reg_pc] = saved_pc_reg;
    loaded_reg_ = saved_loaded;
    return false;
  }
  cycles_ += jumped ? costs_.branch_taken_cycles : cost;
  ++instructions_;
  if (profile_)
    profile_->add(pc, cycles_ - started);
  if (backward && fast_forward_) {
    const WatchAction action = watch_action(pc, cycle_limit, cycles_);
    if (action != WatchAction::none)
      watch_backward_branch(action, pc, cycle_limit, instruction_limit);
  }
  if (state_ == StopReason::halted)
    return false;
  if (yield_) {
    yield_ = false;
    return false;
  }
  return true;
}

StopReason Cpu::run_on(std::uint64_t cycle_limit) {
  watch_persists_ = fast_forward_ && outside_writes_after_run_ == outside_writes_;
  const StopReason reason = run(cycle_limit);
  watch_persists_ = false;
  return reason;
}

StopReason Cpu::run(std::uint64_t cycle_limit, std::uint64_t instruction_limit) {
  if (state_ != StopReason::cycle_limit)
    return state_;
  if (lap_.valid)
    resume_lap(cycle_limit, instruction_limit);
  if (!watch_persists_)
    watch_.reset();
  // A profile counts every instruction on its own: it is filled by stepping;
  // a yield requested before the run ends it after one instruction. A run
  // too short for a whole block runs the block's instructions that fit
  // (run_blocks).
  bool blocks =
      blocks_on_ && profile_ == nullptr && !yield_ && instruction_limit - instructions_ >= 2;
  while (cycles_ < cycle_limit && instructions_ < instruction_limit) {
    if (blocks && npc_ == pc_ + 4 && nnpc_ == pc_ + 8) {
      const BlockExit exit = run_blocks(cycle_limit, instruction_limit);
      if (exit == BlockExit::deferred)
        break;
      if (exit == BlockExit::stop) {
        // As step() ends a run after the access that halts or yields.
        if (state_ != StopReason::halted)
          yield_ = false;
        break;
      }
      // Once the next block would cross a limit, the rest of the run is stepped.
      if (exit == BlockExit::near_limit)
        blocks = false;
      if (cycles_ >= cycle_limit || instructions_ >= instruction_limit)
        break;
    }
    if (!step(cycle_limit, instruction_limit))
      break;
  }
  outside_writes_after_run_ = outside_writes_;
  return state_;
}

} // namespace lanai::iss
