// The LANai as a clocked part of the event-driven simulation: the core runs
// ahead in slices (up to the next pending event or a quantum), converting
// its cycle count to virtual time, so a program of N cycles costs about
// N / quantum kernel events rather than N. The slices are a recurring task
// of the kernel: cores that share a kernel run in lockstep, one slice each
// up to the next one's time, and a slice costs no event allocation.
//
// The order is fixed by time alone: an instruction that starts at time T
// (its cycle's time, rounded up to the picosecond) runs after every event
// of time <= T and before every event of a later time, except that what a
// core's access starts at T (an event of time T scheduled by a slice) comes
// after every instruction at T; instructions of two cores at the same time
// run in the order the cores were built. Since one
// core reaches another only through events, a core with a lookahead (see
// set_lookahead()) may run ahead of the others between its register
// accesses, and a core whose polling loop
// repeats may sleep instead of slicing: the kernel brings it up to the time
// of each event that may reach it (see set_reach()) before the event runs,
// and it wakes once the event changed what its loop reads; a host
// program's events leave it where it is unless they reach its card, whose
// host side brings it up first (bring_up()). Results are the same as if it
// had run all along.
#pragma once

#include <cstdint>
#include <functional>

#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/sim_time.hpp"

namespace lanai::machine {

class ClockedCore final : private kernel::Kernel::Sleeper {
public:
  ClockedCore(kernel::Kernel& kernel, iss::Cpu& cpu, kernel::Frequency clock,
              std::uint64_t quantum_cycles = 100'000);
  ~ClockedCore();
  ClockedCore(const ClockedCore&) = delete;
  ClockedCore& operator=(const ClockedCore&) = delete;

  // Starts executing at the kernel's current time; `on_stop` runs once, in
  // virtual time, when the core halts, faults or reaches `cycle_limit`.
  void start(std::uint64_t cycle_limit, std::function<void(iss::StopReason)> on_stop);

  // Called after every instruction with its address and the cycle count
  // before it; the core then runs one instruction at a time (slower).
  using StepObserver = std::function<void(std::uint32_t pc, std::uint64_t cycle)>;
  void set_step_observer(StepObserver observer) { observer_ = std::move(observer); }

  // Virtual time of the core's current cycle (its local clock).
  kernel::SimTime local_time() const;
  // Virtual time of a given cycle of the core (e.g. of a register access):
  // the first picosecond by which the cycles before it have passed.
  kernel::SimTime time_at(std::uint64_t cycle) const;
  // Cycle of the core at a virtual time at or after the run's start.
  std::uint64_t cycle_at(kernel::SimTime time) const;
  bool started() const { return on_stop_ != nullptr; }
  std::uint64_t slices() const { return slices_; }
  // The least time from any register access of this core to a change in
  // another core's memory, and from any other core's to this one's (the
  // card's devices reach another card only through the wire): other cores
  // may run work that touches no register that far past this core's time,
  // and this core past theirs. Zero (the default) keeps the cores in
  // lockstep. Results are the same either way: a core's register accesses
  // still run in time order with everything else.
  void set_lookahead(kernel::SimTime lookahead);
  // The reach of the events that concern this core alone (those of its
  // card's devices, kernel::EventReach): while it sleeps, other cores'
  // events leave it where it is. By default every event that may reach a
  // processor reaches it.
  void set_reach(kernel::EventReach reach) { reach_ = reach; }
  kernel::EventReach reach() const { return reach_; }
  // What the host side of the card calls before it reads or changes
  // anything the core reads or writes (a doorbell, SRAM): a sleeping core
  // is brought up to the host program's event under way (Kernel::bring_up),
  // which leaves the cores it does not reach where they are.
  void bring_up() {
    if (asleep_)
      kernel_.bring_up(*this);
  }

private:
  void slice();
  // The first cycle the core may not run before the kernel runs what is
  // pending (see slice()): before the next event; for a register access,
  // before the next other task's wake too; for other work, before another
  // task's run may reach the core.
  std::uint64_t event_horizon();
  std::uint64_t horizon(std::uint64_t events) const;
  std::uint64_t private_horizon(std::uint64_t events) const;
  // Cpu::YieldCheck: whether what an access started leaves the run's
  // limits as they are.
  static bool limits_hold(void* core);
  // First cycle whose time is at or after `time` (after it: `time` + 1 ps).
  std::uint64_t first_cycle_from(kernel::SimTime time) const;
  kernel::SimTime resume_time() const;
  void advance_to(kernel::SimTime time, bool late) override;
  bool sleeps_on() override;
  bool would_sleep_on() override;
  void wake(kernel::SimTime now) override;
  void bring_up_to(kernel::SimTime time, bool late) override;
  bool settle(bool brought_up) override;
  // Throws std::logic_error unless nothing the sleeping core's loop reads
  // changed since it last checked (Cpu::idle_inputs_unchanged).
  void require_unchanged();

  kernel::Kernel& kernel_;
  iss::Cpu& cpu_;
  kernel::Frequency clock_;
  std::uint64_t quantum_;
  std::uint64_t cycle_limit_ = 0;
  kernel::SimTime origin_{};
  std::uint64_t origin_cycles_ = 0;
  std::uint64_t slices_ = 0;
  std::function<void(iss::StopReason)> on_stop_;
  StepObserver observer_;
  kernel::TaskId task_; // the slices, a recurring task of the kernel
  bool asleep_ = false;
  kernel::SimTime lookahead_{};
  kernel::EventReach reach_ = kernel::EventReach::anything;
  // The next event when the run's limits were last set (event_horizon).
  struct NextEvent {
    kernel::SimTime time = kernel::SimTime::max();
    bool late = false;
    std::size_t wakes = 0; // task wakes pending then
  };
  NextEvent horizon_event_;
  bool in_run_ = false; // a slice's run is under way (not an observer's)
  // Scheduled events the kernel had run when the last slice ended.
  std::uint64_t events_seen_ = ~std::uint64_t{0};
  // The last conversion each way (the devices convert the same time or
  // cycle many times over); set back by start().
  struct TimeOfCycle {
    bool valid = false;
    std::uint64_t cycle = 0;
    kernel::SimTime time{};
  };
  mutable TimeOfCycle last_time_at_;
  mutable TimeOfCycle last_cycle_at_;
};

} // namespace lanai::machine
