// The core's side of the exact fast-forward of idle loops (idle_watch.hpp):
// at each taken backward branch, start watching it or, if the lap since the
// last arrival changed nothing, skip every following lap that fits before
// the run's limits.
#include "emulator/iss/cpu.hpp"

#include <algorithm>

namespace lanai::iss {

void Cpu::save_idle_state(IdleState& state) const {
  std::copy_n(regs_, state.regs.size(), state.regs.begin());
  state.pc = pc_;
  state.npc = npc_;
  state.nnpc = nnpc_;
  state.loaded_reg = loaded_reg_;
  state.flags = flags_;
}

bool Cpu::in_idle_state(const IdleState& state) const {
  return pc_ == state.pc && npc_ == state.npc && nnpc_ == state.nnpc &&
         loaded_reg_ == state.loaded_reg && flags_ == state.flags &&
         std::equal(state.regs.begin(), state.regs.end(), regs_);
}

void Cpu::watch_backward_branch(WatchAction action, std::uint32_t pc, std::uint64_t cycle_limit,
                                std::uint64_t instruction_limit) {
  if (action == WatchAction::begin) {
    save_idle_state(watch_.begin(pc, cycles_, instructions_));
    return;
  }
  if (action != WatchAction::check)
    return;
  bool repeats = watch_.clean() && cycles_ > watch_.cycles();
  for (int i = 0; repeats && i < watch_.stores(); ++i) {
    const IdleWatch::Store& store = watch_.store(i);
    std::uint32_t now = 0;
    for (std::uint32_t b = 0; b < store.width; ++b)
      now = now << 8 | sram_[store.address + b];
    repeats = now == store.before;
  }
  if (repeats && watch_.read_clock()) {
    // A lap that waits on the clock: never the same state again, and never
    // kept for a later run.
    lap_.valid = false;
    const ClockSkip skip = watch_.stores() == 0
                               ? skip_clock_laps(pc, cycle_limit, instruction_limit)
                               : ClockSkip::unsupported;
    if (skip == ClockSkip::unsupported) {
      watch_.give_up();
      return;
    }
    if (skip == ClockSkip::skipped)
      watch_.succeeded();
    save_idle_state(watch_.begin(pc, cycles_, instructions_));
    return;
  }
  if (!repeats || !in_idle_state(watch_.state())) {
    if (repeats && watch_.reads() > 0 && watch_.may_rewatch())
      save_idle_state(watch_.rewatch(pc, cycles_, instructions_));
    else
      watch_.give_up();
    return;
  }
  const std::uint64_t lap_cycles = cycles_ - watch_.cycles();
  const std::uint64_t lap_instructions = instructions_ - watch_.instructions();
  // The run may end inside the lap: kept, it lets the next run skip at once.
  lap_.valid = watch_.reads_kept();
  if (lap_.valid) {
    lap_.cycles = lap_cycles;
    lap_.instructions = lap_instructions;
    lap_.outside_writes = outside_writes_;
    lap_.outside_state_writes = outside_state_writes_;
    lap_.reads = watch_.reads();
    for (int i = 0; i < lap_.reads; ++i) {
      lap_.read[i] = watch_.read(i);
      lap_.seen[i] = lap_.read[i].value;
    }
    lap_.seen_outside_writes = outside_writes_;
    lap_.polled = lap_.reads == 1 ? polled_register(pc, lap_instructions) : PolledRegister{};
  }
  skip_laps(lap_cycles, lap_instructions, cycle_limit, instruction_limit);
  watch_.succeeded();
  // Skipping leaves the state as it was: the watch goes on from it.
  watch_.begin(pc, cycles_, instructions_);
}

std::uint64_t Cpu::laps_that_fit(std::uint64_t lap_cycles, std::uint64_t lap_instructions,
                                 std::uint64_t cycle_limit, std::uint64_t instruction_limit) const {
  // Whole iterations every instruction of which the plain loop would have
  // started below both limits: each ends before the cycle limit (an
  // instruction may cost no cycles, so ending at the limit is not enough)
  // and no later than the instruction limit.
  // A lap that polls a register must not poll past the access limit.
  // (Divisions cost tens of cycles, and this runs at every skip: a span
  // shorter than a lap, and an instruction limit that holds those laps, are
  // told apart without one.)
  cycle_limit = std::min(cycle_limit, access_limit_);
  const std::uint64_t span = cycle_limit > cycles_ ? cycle_limit - cycles_ - 1 : 0;
  const std::uint64_t laps = span < lap_cycles ? 0 : span / lap_cycles;
  if (lap_instructions == 0 || instruction_limit <= instructions_)
    return 0;
  const std::uint64_t room = instruction_limit - instructions_;
  std::uint64_t needed = 0;
  if (!__builtin_mul_overflow(laps, lap_instructions, &needed) && needed <= room)
    return laps;
  return std::min(laps, room / lap_instructions);
}

std::uint64_t Cpu::skip_laps(std::uint64_t lap_cycles, std::uint64_t lap_instructions,
                             std::uint64_t cycle_limit, std::uint64_t instruction_limit) {
  const std::uint64_t laps =
      laps_that_fit(lap_cycles, lap_instructions, cycle_limit, instruction_limit);
  add_laps(laps, lap_cycles, lap_instructions);
  return laps;
}

void Cpu::add_laps(std::uint64_t laps, std::uint64_t lap_cycles, std::uint64_t lap_instructions) {
  cycles_ += laps * lap_cycles;
  instructions_ += laps * lap_instructions;
  skipped_cycles_ += laps * lap_cycles;
  skipped_instructions_ += laps * lap_instructions;
}

bool Cpu::read_stable(std::uint32_t address, std::uint32_t& value) {
  const DirectRegister& direct = registers_.entry(address).direct;
  if (direct.read != nullptr) {
    value = direct.read(direct.owner);
    return true;
  }
  return bus_->read(address, cycles_, value) == MmioStatus::ok;
}

std::optional<std::uint32_t> Cpu::one_block_lap(std::uint32_t branch_pc,
                                                std::uint64_t lap_instructions) const {
  const std::uint32_t target = npc_;
  if (target >= sram_bytes_ || (target & 3u) || branch_pc < target || pc_ != branch_pc + 4 ||
      nnpc_ != target + 4 || lap_instructions != (branch_pc - target) / 4 + 2)
    return std::nullopt;
  return target;
}

PolledRegister Cpu::polled_register(std::uint32_t branch_pc, std::uint64_t lap_instructions) {
  // The lap must be the cached block at the branch's target, whole.
  const std::optional<std::uint32_t> entry = one_block_lap(branch_pc, lap_instructions);
  if (!entry)
    return {};
  const std::uint32_t target = *entry;
  const Block* block = blocks_.entries()[target >> 2];
  if (block == nullptr || block->count != lap_instructions)
    return {};
  const std::uint32_t address = lap_.read[0].address;
  for (const PolledLapAnalysis& kept : polled_analyses_)
    if (kept.first_pc == target && kept.address == address &&
        kept.generation == blocks_.generation())
      return kept.result.with_masks(regs_);
  const PolledRegister result =
      analyse_polled_register(block->ops, block->count, target, address, sram_bytes_, regs_);
  if (!result.used_values) {
    polled_analyses_[polled_next_] = {target, address, blocks_.generation(), result};
    polled_next_ = (polled_next_ + 1) % polled_analyses_.size();
  }
  return result.with_masks(regs_);
}

bool Cpu::idle_loop_repeats() { return loop_repeats(nullptr); }

bool Cpu::loop_repeats(std::array<std::uint32_t, IdleWatch::max_reads>* values) {
  // A write from outside to data the lap does not load changes nothing it
  // does.
  const bool unwritten =
      lap_.outside_writes == outside_writes_ ||
      (!lap_.polled.reads_memory && lap_.outside_state_writes == outside_state_writes_);
  bool same = lap_.valid && fast_forward_ && !yield_ && unwritten;
  for (int i = 0; same && i < lap_.reads; ++i) {
    std::uint32_t value = 0;
    same = bus_ != nullptr && read_stable(lap_.read[i].address, value);
    if (same && value != lap_.read[i].value) {
      // Only bits the lap does not decide on may have changed.
      same = lap_.polled.covers(pc_) && ((value ^ lap_.read[i].value) & lap_.polled.relevant) == 0;
    }
    lap_.polled_now = value;
    if (values != nullptr)
      (*values)[i] = value;
  }
  return same;
}

bool Cpu::idle_loop_holds() {
  std::array<std::uint32_t, IdleWatch::max_reads> values;
  lap_.valid = loop_repeats(&values);
  if (lap_.valid) {
    std::copy_n(values.begin(), lap_.reads, lap_.seen.begin());
    lap_.seen_outside_writes = outside_writes_;
  }
  return lap_.valid;
}

bool Cpu::idle_inputs_unchanged() {
  if (!lap_.valid || bus_ == nullptr || outside_writes_ != lap_.seen_outside_writes)
    return false;
  for (int i = 0; i < lap_.reads; ++i) {
    std::uint32_t value = 0;
    if (!read_stable(lap_.read[i].address, value) || value != lap_.seen[i])
      return false;
  }
  return true;
}

bool Cpu::watch_holds() {
  if (!fast_forward_ || bus_ == nullptr || outside_writes_after_run_ != outside_writes_ ||
      watch_.branch() == IdleWatch::none || !watch_.clean() || !watch_.reads_kept() ||
      watch_.read_clock())
    return false;
  for (int i = 0; i < watch_.reads(); ++i) {
    std::uint32_t value = 0;
    const IdleWatch::Read& read = watch_.read(i);
    if (!read_stable(read.address, value) || value != read.value)
      return false;
  }
  return true;
}

void Cpu::resume_lap(std::uint64_t cycle_limit, std::uint64_t instruction_limit) {
  // From any point of a lap that repeats, the next lap_.cycles bring the
  // core back to the same point in the same state, so skipping from here is
  // as exact as skipping at the branch.
  if (!idle_loop_holds())
    return;
  const std::uint64_t laps =
      skip_laps(lap_.cycles, lap_.instructions, cycle_limit, instruction_limit);
  // A whole lap reads the polled register again: the registers that keep
  // the value read hold its value now.
  std::uint32_t holding = 0;
  if (laps > 0 && lap_.polled.holding_at(pc_, holding))
    for (; holding != 0; holding &= holding - 1)
      regs_[__builtin_ctz(holding)] = lap_.polled_now;
}

} // namespace lanai::iss
