// Slice scheduling of the LANai core on the event kernel.
#include "emulator/machine/clocked_core.hpp"

#include <algorithm>

namespace lanai::machine {

ClockedCore::ClockedCore(kernel::Kernel& kernel, iss::Cpu& cpu, kernel::Frequency clock,
                         std::uint64_t quantum_cycles)
    : kernel_(kernel), cpu_(cpu), clock_(clock),
      quantum_(std::max<std::uint64_t>(quantum_cycles, 1)),
      task_(kernel_.add_task([this] { slice(); }, "lanai.slice")) {}

ClockedCore::~ClockedCore() { kernel_.remove_task(task_); }

kernel::SimTime ClockedCore::local_time() const {
  return origin_ + clock_.cycles_to_time(cpu_.cycles() - origin_cycles_);
}

kernel::SimTime ClockedCore::time_at(std::uint64_t cycle) const {
  return origin_ + clock_.cycles_to_time(cycle - origin_cycles_);
}

std::uint64_t ClockedCore::cycle_at(kernel::SimTime time) const {
  return origin_cycles_ + clock_.time_to_cycles(time - origin_);
}

void ClockedCore::start(std::uint64_t cycle_limit, std::function<void(iss::StopReason)> on_stop) {
  cycle_limit_ = cycle_limit;
  on_stop_ = std::move(on_stop);
  origin_ = kernel_.now();
  origin_cycles_ = cpu_.cycles();
  kernel_.wake_task(task_, kernel_.now());
}

void ClockedCore::slice() {
  ++slices_;
  // Run no further than the next thing anyone else scheduled, so device
  // events see the core's accesses in time order.
  std::uint64_t horizon = std::min(cycle_limit_, cpu_.cycles() + quantum_);
  if (kernel_.pending() > 0) {
    const auto next = kernel_.next_event_time();
    const std::uint64_t next_cycle = origin_cycles_ + clock_.time_to_cycles(next - origin_);
    horizon = std::min(horizon, std::max(next_cycle, cpu_.cycles() + 1));
  }
  iss::StopReason reason;
  if (!observer_) {
    reason = cpu_.run(horizon);
  } else {
    do {
      const std::uint32_t pc = cpu_.pc();
      const std::uint64_t before = cpu_.cycles();
      reason = cpu_.run(horizon, cpu_.instructions() + 1);
      if (cpu_.cycles() != before || reason != iss::StopReason::fault)
        observer_(pc, before);
    } while (reason == iss::StopReason::cycle_limit && cpu_.cycles() < horizon);
  }
  const kernel::SimTime resume =
      origin_ + clock_.cycles_to_time_ceil(cpu_.cycles() - origin_cycles_);
  if (reason != iss::StopReason::cycle_limit || cpu_.cycles() >= cycle_limit_) {
    kernel_.schedule_at(
        resume, [this, reason] { on_stop_(reason); }, "lanai.stop");
    return;
  }
  kernel_.wake_task(task_, resume);
}

} // namespace lanai::machine
