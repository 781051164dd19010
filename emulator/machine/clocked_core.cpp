// Slice scheduling of the LANai core on the event kernel.
#include "emulator/machine/clocked_core.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanai::machine {

ClockedCore::ClockedCore(kernel::Kernel& kernel, iss::Cpu& cpu, kernel::Frequency clock,
                         std::uint64_t quantum_cycles)
    : kernel_(kernel), cpu_(cpu), clock_(clock),
      quantum_(std::max<std::uint64_t>(quantum_cycles, 1)),
      task_(kernel_.add_task([this] { slice(); }, "lanai.slice")) {
  cpu_.set_yield_check(&ClockedCore::limits_hold, this);
}

ClockedCore::~ClockedCore() {
  cpu_.set_yield_check(nullptr, nullptr);
  if (asleep_)
    kernel_.remove_sleeper(*this);
  kernel_.remove_task(task_);
}

kernel::SimTime ClockedCore::local_time() const { return time_at(cpu_.cycles()); }

kernel::SimTime ClockedCore::time_at(std::uint64_t cycle) const {
  if (!last_time_at_.valid || cycle != last_time_at_.cycle)
    last_time_at_ = {true, cycle, origin_ + clock_.cycles_to_time_ceil(cycle - origin_cycles_)};
  return last_time_at_.time;
}

std::uint64_t ClockedCore::cycle_at(kernel::SimTime time) const {
  if (!last_cycle_at_.valid || time != last_cycle_at_.time)
    last_cycle_at_ = {true, origin_cycles_ + clock_.time_to_cycles(time - origin_), time};
  return last_cycle_at_.cycle;
}

void ClockedCore::start(std::uint64_t cycle_limit, std::function<void(iss::StopReason)> on_stop) {
  cycle_limit_ = cycle_limit;
  on_stop_ = std::move(on_stop);
  origin_ = kernel_.now();
  origin_cycles_ = cpu_.cycles();
  last_time_at_ = {};
  last_cycle_at_ = {};
  kernel_.wake_task(task_, kernel_.now());
}

std::uint64_t ClockedCore::first_cycle_from(kernel::SimTime time) const {
  // Cycle c's time is ceil(c * period) picoseconds after the origin: at
  // or after `time` exactly when c * period > time - 1 ps.
  if (time <= origin_)
    return origin_cycles_;
  return origin_cycles_ + clock_.time_to_cycles(time - origin_ - kernel::picoseconds(1)) + 1;
}

kernel::SimTime ClockedCore::resume_time() const { return time_at(cpu_.cycles()); }

std::uint64_t ClockedCore::event_horizon() {
  // Instructions before the next event's time (at it, too, if a core's
  // access scheduled it), within the quantum and the cycle limit.
  std::uint64_t horizon = std::min(cycle_limit_, cpu_.cycles() + quantum_);
  bool late = false;
  const kernel::SimTime event = kernel_.next_scheduled_time(late);
  horizon_event_ = {event, late, kernel_.wakes_pending()};
  if (event != kernel::SimTime::max())
    horizon = std::min(horizon, first_cycle_from(late ? event + kernel::picoseconds(1) : event));
  return horizon;
}

std::uint64_t ClockedCore::horizon(std::uint64_t events) const {
  // Instructions that come before everything else pending: those before
  // the next event, and those up to the next other task's wake (at its
  // very time, too, if this core was built first).
  kernel::SimTime wake;
  kernel::TaskId other;
  if (kernel_.next_wake(wake, other)) {
    const bool first = task_.value < other.value;
    events = std::min(events, first_cycle_from(first ? wake + kernel::picoseconds(1) : wake));
  }
  return events;
}

std::uint64_t ClockedCore::private_horizon(std::uint64_t events) const {
  // Work that touches nothing outside the core may run on until the next
  // event, or until another task's run may first reach it.
  const kernel::SimTime reach = kernel_.wake_reach(task_);
  if (reach != kernel::SimTime::max())
    events = std::min(events, first_cycle_from(reach));
  return events;
}

bool ClockedCore::limits_hold(void* core) {
  // No event has run since the run's limits were set, so they hold unless
  // the access scheduled an event before the one they were set by, or woke
  // a task.
  // (Only in a slice's run: one that brings a sleeping core up to an event
  // has limits of its own.)
  auto& self = *static_cast<ClockedCore*>(core);
  if (!self.in_run_)
    return false;
  bool late = false;
  const kernel::SimTime event = self.kernel_.next_scheduled_time(late);
  const NextEvent& was = self.horizon_event_;
  return self.kernel_.wakes_pending() == was.wakes &&
         (event > was.time || (event == was.time && (late || !was.late)));
}

void ClockedCore::set_lookahead(kernel::SimTime lookahead) {
  lookahead_ = lookahead;
  kernel_.set_task_lookahead(task_, lookahead);
}

void ClockedCore::slice() {
  ++slices_;
  iss::StopReason reason;
  std::uint64_t events = event_horizon();
  std::uint64_t accesses = horizon(events);
  for (;;) {
    // Register accesses up to the horizon; with a lookahead, the core's
    // private work (anything but a register access) beyond it, as far as
    // no other task can reach the core.
    accesses = std::max(accesses, cpu_.cycles() + 1);
    // A core stepped for an observer goes one instruction at a time, in
    // lockstep.
    const std::uint64_t limit = lookahead_ > kernel::SimTime::zero() && !observer_
                                    ? std::max(private_horizon(events), accesses)
                                    : accesses;
    cpu_.set_access_limit(limit > accesses ? accesses : ~std::uint64_t{0});
    // With no event run since the last run, or none that changed what the
    // lap the core's idle watch follows has read, the watch carries on
    // across the two runs.
    const bool unchanged =
        kernel_.scheduled_events_executed() == events_seen_ || cpu_.watch_holds();
    if (!observer_) {
      struct InRun {
        bool& flag;
        explicit InRun(bool& f) : flag(f) { flag = true; }
        ~InRun() { flag = false; } // also when a device's error ends the run
      } in_run(in_run_);
      reason = unchanged ? cpu_.run_on(limit) : cpu_.run(limit);
    } else {
      do {
        const std::uint32_t pc = cpu_.pc();
        const std::uint64_t before = cpu_.cycles();
        reason = cpu_.run(limit, cpu_.instructions() + 1);
        if (cpu_.cycles() != before || reason != iss::StopReason::fault)
          observer_(pc, before);
      } while (reason == iss::StopReason::cycle_limit && cpu_.cycles() < limit);
    }
    cpu_.set_access_limit(~std::uint64_t{0});
    events_seen_ = kernel_.scheduled_events_executed();
    // A run that ended before its limit was asked to yield by an access
    // that started a device operation. If what the access scheduled comes
    // after the core's next instruction, as does everything else pending,
    // the kernel would hand the core its next slice at once: it goes on in
    // this one.
    if (reason != iss::StopReason::cycle_limit || observer_ || cpu_.cycles() >= limit ||
        cpu_.cycles() >= cycle_limit_ || cpu_.in_idle_loop())
      break;
    events = event_horizon();
    accesses = horizon(events);
    if (accesses <= cpu_.cycles())
      break;
  }
  const kernel::SimTime resume = resume_time();
  if (reason != iss::StopReason::cycle_limit || cpu_.cycles() >= cycle_limit_) {
    kernel_.schedule_at(
        resume, [this, reason] { on_stop_(reason); }, "lanai.stop");
    return;
  }
  // A core in a loop that repeats sleeps until an event changes what the
  // loop reads (there must be one to come).
  if (!observer_ && cpu_.in_idle_loop() && kernel_.has_scheduled_events()) {
    asleep_ = true;
    kernel_.add_sleeper(*this, reach_);
    return;
  }
  kernel_.wake_task(task_, resume);
}

void ClockedCore::advance_to(kernel::SimTime time, bool late) {
  const std::uint64_t target =
      std::min(first_cycle_from(late ? time + kernel::picoseconds(1) : time), cycle_limit_);
  if (cpu_.cycles() < target)
    cpu_.run(target);
}

bool ClockedCore::sleeps_on() {
  if (cpu_.running() && cpu_.cycles() < cycle_limit_ && cpu_.idle_loop_holds())
    return true;
  wake(kernel_.now());
  return false;
}

void ClockedCore::require_unchanged() {
  if (!cpu_.idle_inputs_unchanged())
    throw std::logic_error(
        "lanai::machine: during a host program's event, something changed what a sleeping "
        "LANai's loop reads without bringing the core up first: a program may reach a card "
        "only through its host side (Card::ring_doorbell, Card::write_sram, "
        "Card::read_sram_word)");
}

void ClockedCore::bring_up_to(kernel::SimTime time, bool late) {
  require_unchanged();
  advance_to(time, late);
}

bool ClockedCore::settle(bool brought_up) {
  if (brought_up)
    return sleeps_on();
  require_unchanged();
  return true;
}

bool ClockedCore::would_sleep_on() {
  return cpu_.running() && cpu_.cycles() < cycle_limit_ && cpu_.idle_loop_repeats();
}

void ClockedCore::wake(kernel::SimTime now) {
  asleep_ = false;
  advance_to(now, false);
  events_seen_ = ~std::uint64_t{0};
  kernel_.wake_task(task_, std::max(resume_time(), now));
}

} // namespace lanai::machine
