// The LANai processor core: 32 registers (r0 reads 0, r1 reads all ones,
// r2 is the pc), condition flags, big-endian SRAM, the register window, the
// branch and load-to-pc delay slots, and a per-class cycle count. Code runs
// as predecoded blocks where it can and one instruction at a time where it
// must; a store into code drops what was predecoded from it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "emulator/iss/block_builder.hpp"
#include "emulator/iss/block_cache.hpp"
#include "emulator/iss/cycle_costs.hpp"
#include "emulator/iss/fault.hpp"
#include "emulator/iss/idle_watch.hpp"
#include "emulator/iss/instruction.hpp"
#include "emulator/iss/mmio_bus.hpp"
#include "emulator/iss/pc_profile.hpp"
#include "emulator/iss/register_kinds.hpp"
#include "emulator/iss/zeroed_array.hpp"

namespace lanai::iss {

enum class StopReason : std::uint8_t {
  cycle_limit, // ran up to the requested cycle count
  halted,      // a device register access stopped the processor
  fault,       // see fault()
};

struct Flags {
  bool c = false, v = false, n = false, z = false;
};

// Whether processors built from now on fast-forward idle loops (on unless a
// command line said --no-fast-forward). Set once, before any machine is built.
void set_default_fast_forward(bool on);
bool default_fast_forward();
// Whether processors built from now on execute predecoded blocks (on unless
// a command line said --no-blocks). Set once, before any machine is built.
void set_default_blocks(bool on);
bool default_blocks();

class Cpu {
public:
  Cpu(std::uint32_t sram_bytes, CycleCosts costs, MmioBus* bus);

  // Clears registers and flags, starts fetching at `entry`.
  void reset(std::uint32_t entry);

  // Executes until the cycle count reaches `cycle_limit`, the instruction
  // count reaches `instruction_limit`, or the processor halts or faults.
  // Returns immediately if already halted or faulted.
  StopReason run(std::uint64_t cycle_limit, std::uint64_t instruction_limit = ~std::uint64_t{0});
  // The same, for a caller that knows nothing outside the core changed
  // since the last run ended (no device event, no write from outside): the
  // idle watch then carries on across the two runs, so a core that runs in
  // short slices still finds its polling loop.
  StopReason run_on(std::uint64_t cycle_limit);
  // Device registers are the core's only way to what lies outside it. With
  // an access limit, an instruction that starts at or after `cycle` and
  // would read or write one is not executed: the run stops before it, so
  // a caller may let the core's private work run past a point its accesses
  // must not pass. No limit (the default) is ~0.
  void set_access_limit(std::uint64_t cycle) { access_limit_ = cycle; }

  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t instructions() const { return instructions_; }
  // Cycles a device made the processor wait (e.g. a busy bus).
  void add_stall_cycles(std::uint64_t n) { cycles_ += n; }
  // Ends the current run() after the instruction in progress, so a device
  // that just scheduled an event is seen by the scheduler before the core
  // runs past it.
  void request_yield() { yield_ = true; }
  // Asked, when an access inside a block requested a yield, whether the run
  // may go on instead: true if what the access started leaves the run's
  // limits (its cycle limit and the access limit) where whoever drives the
  // core would set them now. None (the default): a yield always ends the
  // run.
  using YieldCheck = bool (*)(void* driver);
  void set_yield_check(YieldCheck check, void* driver) {
    yield_check_ = check;
    yield_driver_ = driver;
  }
  std::uint64_t access_limit() const { return access_limit_; }
  // Exact fast-forward of idle polling loops (see idle_watch.hpp), on by
  // default; results are the same either way, only the host time differs.
  void set_fast_forward(bool on) { fast_forward_ = on; }
  bool fast_forward() const { return fast_forward_; }
  // Execution of predecoded blocks (on by default, see set_default_blocks);
  // off, every instruction is stepped by the reference path. Results are the
  // same either way.
  void set_blocks(bool on) { blocks_on_ = on && block_costs_supported(costs_); }
  bool blocks() const { return blocks_on_; }
  // Instructions executed inside blocks (the rest were stepped).
  std::uint64_t block_instructions() const { return block_instructions_; }
  // Counts every executed instruction and its cycles (memory wait states
  // included) into `profile` (sized for this SRAM) while set; nullptr stops.
  // Idle laps that fast-forward skips are not attributed: a profiled core
  // normally runs with fast-forward off.
  void set_profile(PcProfile* profile);
  // The core stands in a polling loop found to repeat (fast-forward is on,
  // and it was seen to repeat or was checked at the start of the last run).
  bool in_idle_loop() const { return lap_.valid; }
  // Whether that loop still repeats: nothing it reads changed, and nothing
  // outside the core wrote its memory or registers, since it was found.
  // Forgets the loop if not.
  bool idle_loop_holds();
  // The same check without forgetting the loop.
  bool idle_loop_repeats();
  // Whether the core stands in such a loop and nothing has changed since
  // it was last found to hold: every register the loop reads reads the
  // same, to the bit, and nothing outside the core wrote its memory or
  // registers. Changes nothing.
  bool idle_inputs_unchanged();
  // Whether the lap the idle watch follows may go on in the next run
  // (run_on()) although device events ran since this one ended: nothing
  // outside the core wrote its memory or registers, and every device
  // register the lap read so far still reads the same, so the core stands
  // as if none had run.
  bool watch_holds();
  // Cycles (and instructions) that fast-forward accounted without executing.
  std::uint64_t skipped_cycles() const { return skipped_cycles_; }
  std::uint64_t skipped_instructions() const { return skipped_instructions_; }
  const Fault& fault() const { return fault_; }
  StopReason state() const { return state_; }
  bool running() const { return state_ == StopReason::cycle_limit; }

  std::uint32_t reg(unsigned r) const { return regs_[r & 31u]; }
  void set_reg(unsigned r, std::uint32_t v);
  std::uint32_t pc() const { return pc_; }
  Flags flags() const;

  // Host-side SRAM access (big-endian), e.g. for loaders and DMA engines.
  std::uint32_t sram_bytes() const { return sram_bytes_; }
  void write_sram(std::uint32_t addr, std::span<const std::uint8_t> data);
  void read_sram(std::uint32_t addr, std::span<std::uint8_t> out) const;
  // The bytes themselves, valid until the next write (a copy out of SRAM
  // then needs no buffer of its own).
  std::span<const std::uint8_t> sram_view(std::uint32_t addr, std::uint32_t length) const;
  std::uint32_t read_word(std::uint32_t addr) const;
  void write_word(std::uint32_t addr, std::uint32_t value);

private:
  // Why run_blocks() returned.
  enum class BlockExit : std::uint8_t {
    step,       // the next instruction must be stepped (and then blocks tried again)
    near_limit, // the next block would cross a limit: step to the end of the run
    stop,       // a register access halted the core or asked it to yield: the run ends
    deferred,   // the next instruction's register access lies past the access limit
  };
  // Per SRAM word (code_): what was predecoded from it.
  static constexpr std::uint8_t code_decoded = 1;  // decoded_ holds it
  static constexpr std::uint8_t code_in_block = 2; // a cached block may cover it

  bool condition(unsigned cond) const { return (cond_table_[flags_] >> cond) & 1u; }
  void write_reg(unsigned r, std::uint32_t v, bool from_load);
  std::uint64_t access_cycle(const Block* block, const BlockOp* op, std::uint64_t cycles,
                             std::uint32_t loaded) const;
  // Executes one instruction (the reference for the block executor); false
  // when run() must return (fault, halt, yield).
  bool step(std::uint64_t cycle_limit, std::uint64_t instruction_limit);
  // Runs cached blocks back to back while each fits in both limits.
  BlockExit run_blocks(std::uint64_t cycle_limit, std::uint64_t instruction_limit);
  // Builds the block entered at `pc` and marks the words it covers.
  const Block* build_block_at(std::uint32_t pc);
  // The SRAM word at `index` was written: forget what was decoded from it.
  void code_written(std::uint32_t index);
  // Words [first, last] now hold something predecoded.
  void note_code(std::uint32_t first, std::uint32_t last) {
    code_first_ = std::min(code_first_, first);
    code_last_ = std::max(code_last_, last);
  }
  bool load(const Instruction& in, std::uint32_t pc, std::uint32_t ea, std::uint32_t& out);
  bool store(const Instruction& in, std::uint32_t pc, std::uint32_t ea, std::uint32_t value);
  bool mmio_access(const Instruction& in, std::uint32_t pc, std::uint32_t ea, std::uint32_t* value,
                   bool is_store);
  void raise(FaultKind kind, const Instruction& in, std::uint32_t pc, std::uint32_t address,
             std::uint32_t width, bool is_store);
  void skip_predicated(const Instruction& in);
  bool execute_memory(const Instruction& in, std::uint32_t pc);
  const Instruction& fetch(std::uint32_t pc);
  // The state a lap of an idle loop must end in (IdleState), saved or
  // compared in place.
  void save_idle_state(IdleState& state) const;
  bool in_idle_state(const IdleState& state) const;
  // What the idle watch does at a taken backward branch at `pc`, `cycles`
  // after it (deciding may use up one of the watch's skips).
  enum class WatchAction : std::uint8_t { none, begin, check };
  WatchAction watch_action(std::uint32_t pc, std::uint64_t cycle_limit, std::uint64_t cycles) {
    if (watch_.branch() == pc)
      return WatchAction::check;
    return (watch_persists_ || cycle_limit - cycles >= IdleWatch::min_cycles) && watch_.wants(pc)
               ? WatchAction::begin
               : WatchAction::none;
  }
  // Does it, the core's state being the one right after the branch: starts
  // watching the branch, or skips the laps that repeat the last one.
  void watch_backward_branch(WatchAction action, std::uint32_t pc, std::uint64_t cycle_limit,
                             std::uint64_t instruction_limit);
  // At a taken backward branch whose lap read a clock register
  // (clock_lap.hpp): skips the following laps that decide as the next one
  // does and fit before both limits, or says why it did not.
  enum class ClockSkip : std::uint8_t {
    skipped,
    not_now,    // a loop it follows, but no lap to skip here (one leaves it, or a limit is near)
    unsupported // a lap it cannot follow exactly
  };
  ClockSkip skip_clock_laps(std::uint32_t pc, std::uint64_t cycle_limit,
                            std::uint64_t instruction_limit);
  // Adds the whole laps that fit before both limits to the counts; how
  // many they were.
  std::uint64_t skip_laps(std::uint64_t lap_cycles, std::uint64_t lap_instructions,
                          std::uint64_t cycle_limit, std::uint64_t instruction_limit);
  // How many whole laps fit before both limits (and the access limit).
  std::uint64_t laps_that_fit(std::uint64_t lap_cycles, std::uint64_t lap_instructions,
                              std::uint64_t cycle_limit, std::uint64_t instruction_limit) const;
  // Counts `laps` laps as executed, and as skipped.
  void add_laps(std::uint64_t laps, std::uint64_t lap_cycles, std::uint64_t lap_instructions);
  // At the start of a run inside a lap that repeated in the last one: skips
  // the laps that fit if nothing the lap depends on changed since, else
  // forgets the lap.
  void resume_lap(std::uint64_t cycle_limit, std::uint64_t instruction_limit);
  // The entry of the lap of `lap_instructions` that just repeated, ending
  // at the backward branch at `branch_pc`, if the lap is one block: the
  // core stands in the branch's delay slot, and the lap is the block from
  // the branch's target through that slot. Nothing otherwise.
  std::optional<std::uint32_t> one_block_lap(std::uint32_t branch_pc,
                                             std::uint64_t lap_instructions) const;
  // What the lap that just repeated, ending at the backward branch at
  // `branch_pc`, does with the one register it read (unknown unless the lap
  // is one whole cached block).
  PolledRegister polled_register(std::uint32_t branch_pc, std::uint64_t lap_instructions);
  // Reads a stable register again, as the idle watch does (directly if the
  // bus has a direct read for it): false if the bus refused.
  bool read_stable(std::uint32_t address, std::uint32_t& value);
  // idle_loop_repeats(), leaving what each read gave in `values` if given.
  bool loop_repeats(std::array<std::uint32_t, IdleWatch::max_reads>* values);

  std::uint32_t sram_bytes_;
  ZeroedArray<std::uint8_t> sram_;
  ZeroedArray<Instruction> decoded_; // meaningful where code_ says code_decoded
  ZeroedArray<std::uint8_t> code_;
  // Every word with a non-zero code_ entry lies in [code_first_, code_last_]
  // (empty while first > last).
  std::uint32_t code_first_ = ~std::uint32_t{0};
  std::uint32_t code_last_ = 0;
  BlockCache blocks_;
  CycleCosts costs_;
  bool blocks_on_;
  std::uint32_t class_cost_[static_cast<int>(CostClass::count)];
  MmioBus* bus_;
  // The bus leaves an unmapped register untouched (asked once: a promise of
  // the bus, not of an address).
  bool bus_untouched_ = bus_ != nullptr && bus_->unmapped_is_untouched();
  RegisterKinds registers_{bus_};

  std::uint32_t regs_[reg_discard + 1] = {}; // the 32 registers and the discarded one
  std::uint8_t flags_ = 0;
  std::uint16_t cond_table_[16] = {};
  std::uint32_t pc_ = 0, npc_ = 4, nnpc_ = 8;
  std::uint32_t loaded_reg_ = 0; // register written by the previous load (0: none)
  std::uint64_t cycles_ = 0;
  std::uint64_t instructions_ = 0;
  StopReason state_ = StopReason::cycle_limit;
  bool yield_ = false;
  YieldCheck yield_check_ = nullptr;
  void* yield_driver_ = nullptr;
  std::uint64_t access_limit_ = ~std::uint64_t{0};
  bool deferred_ = false; // the stepped instruction's access lies past the access limit
  Fault fault_;
  bool fast_forward_ = default_fast_forward();
  IdleWatch watch_;
  LapRecord lap_;
  // The last analyses of polled laps (polled_register()), by the lap's
  // block and register, while the block cache keeps its blocks.
  struct PolledLapAnalysis {
    std::uint32_t first_pc = 0;
    std::uint32_t address = 0;
    std::uint64_t generation = ~std::uint64_t{0};
    PolledRegister result;
  };
  std::array<PolledLapAnalysis, 4> polled_analyses_{};
  std::uint32_t polled_next_ = 0;
  std::vector<BlockOp> clock_lap_ops_; // the lap skip_clock_laps() looks at
  // Writes to memory or registers from outside the core (loaders, DMA,
  // debuggers): a kept lap is no longer known to repeat after one.
  std::uint64_t outside_writes_ = 0;
  std::uint64_t outside_writes_after_run_ = 0;
  // Those of them that reached the registers or predecoded code (all but
  // writes to data): a lap that loads no data does not see the others.
  std::uint64_t outside_state_writes_ = 0;
  // This run carries on the last one's idle watch (run_on()).
  bool watch_persists_ = false;
  PcProfile* profile_ = nullptr;
  std::uint64_t skipped_cycles_ = 0;
  std::uint64_t skipped_instructions_ = 0;
  std::uint64_t block_instructions_ = 0;
};

} // namespace lanai::iss
