// The core's side of the exact fast-forward of idle loops (idle_watch.hpp):
// at each taken backward branch, start watching it or, if the lap since the
// last arrival changed nothing, skip every following lap that fits before
// the run's limits.
#include "emulator/iss/cpu.hpp"

#include <algorithm>

namespace lanai::iss {

IdleState Cpu::idle_state() const {
  IdleState state;
  std::copy_n(regs_, state.regs.size(), state.regs.begin());
  state.pc = pc_;
  state.npc = npc_;
  state.nnpc = nnpc_;
  state.loaded_reg = loaded_reg_;
  state.flags = flags_;
  return state;
}

void Cpu::watch_backward_branch(WatchAction action, std::uint32_t pc, std::uint64_t cycle_limit,
                                std::uint64_t instruction_limit) {
  if (action == WatchAction::begin) {
    watch_.begin(pc, idle_state(), cycles_, instructions_);
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
  const IdleState state = idle_state();
  if (!repeats || !(state == watch_.state())) {
    watch_.give_up();
    return;
  }
  // Whole iterations every instruction of which the plain loop would have
  // started below both limits: each ends before the cycle limit (an
  // instruction may cost no cycles, so ending at the limit is not enough)
  // and no later than the instruction limit.
  const std::uint64_t lap_cycles = cycles_ - watch_.cycles();
  const std::uint64_t lap_instructions = instructions_ - watch_.instructions();
  std::uint64_t laps = cycle_limit > cycles_ ? (cycle_limit - cycles_ - 1) / lap_cycles : 0;
  if (lap_instructions > 0 && instruction_limit > instructions_)
    laps = std::min(laps, (instruction_limit - instructions_) / lap_instructions);
  else
    laps = 0;
  cycles_ += laps * lap_cycles;
  instructions_ += laps * lap_instructions;
  skipped_cycles_ += laps * lap_cycles;
  skipped_instructions_ += laps * lap_instructions;
  watch_.succeeded();
  watch_.begin(pc, state, cycles_, instructions_);
}

} // namespace lanai::iss
