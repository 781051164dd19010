// The card's countdown timer: counts LANai cycles down from the value the
// firmware wrote and raises a sticky event bit when it reaches zero, so
// firmware can bound a wait without reading the cycle counter in a loop.
#pragma once

#include <cstdint>

#include "emulator/kernel/event_queue.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/nic/event_word.hpp"
#include "lanai/register_map.h"

namespace lanai::nic {

class CountdownTimer {
public:
  CountdownTimer(kernel::Kernel& kernel, const machine::ClockedCore& core)
      : kernel_(kernel), core_(core) {}
  ~CountdownTimer() { kernel_.cancel(event_); }
  CountdownTimer(const CountdownTimer&) = delete;
  CountdownTimer& operator=(const CountdownTimer&) = delete;

  // A write at core cycle `cycle`: clears the expired flag; N > 0 (re)starts
  // a countdown of N cycles, 0 cancels.
  void write(std::uint64_t cycle, std::uint32_t cycles);
  // Cycles left at core cycle `cycle` (0 once expired or when stopped).
  std::uint32_t read(std::uint64_t cycle) const;

  // LANAI_EV_TIMER as it stands now (set once a countdown has expired).
  std::uint32_t event_bits() const { return expired_ ? std::uint32_t{LANAI_EV_TIMER} : 0u; }
  // Where event_bits() is published from now on (the card's event word).
  void set_event_word(EventWord* word) { events_.attach(word, event_bits()); }
  bool running() const { return event_.valid(); }
  // Countdowns started and expired.
  std::uint64_t activity() const { return activity_; }

private:
  EventBits events_{LANAI_EV_TIMER};
  kernel::Kernel& kernel_;
  const machine::ClockedCore& core_;
  kernel::EventId event_;
  std::uint64_t expiry_cycle_ = 0;
  bool expired_ = false;
  std::uint64_t activity_ = 0;
};

} // namespace lanai::nic
