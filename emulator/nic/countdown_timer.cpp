// Countdown timer behaviour: the expiry is scheduled at the virtual time of
// the cycle it names, so the core sees it exactly when its count gets there.
#include "emulator/nic/countdown_timer.hpp"

#include <algorithm>

namespace lanai::nic {

void CountdownTimer::write(std::uint64_t cycle, std::uint32_t cycles) {
  kernel_.cancel(event_);
  event_ = {};
  expired_ = false;
  events_.publish(event_bits());
  if (cycles == 0)
    return;
  expiry_cycle_ = cycle + cycles;
  // time_at rounds down, and the core stops only at the event's cycle
  // rounded down again; step to the first picosecond whose cycle is the
  // expiry cycle so the core never reads "1 left" with the bit set.
  kernel::SimTime when = core_.time_at(expiry_cycle_);
  if (core_.cycle_at(when) < expiry_cycle_)
    when += kernel::picoseconds(1);
  when = std::max(when, kernel_.now());
  ++activity_;
  event_ = kernel_.schedule_at(
      when,
      [this] {
        event_ = {};
        expired_ = true;
        events_.publish(event_bits());
        ++activity_;
      },
      "nic.timer", core_.reach());
}

std::uint32_t CountdownTimer::read(std::uint64_t cycle) const {
  if (!event_.valid() || cycle >= expiry_cycle_)
    return 0;
  return static_cast<std::uint32_t>(expiry_cycle_ - cycle);
}

} // namespace lanai::nic
