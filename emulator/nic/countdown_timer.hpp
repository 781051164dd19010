// The card's countdown timer: counts LANai cycles down from the value the
// firmware wrote and raises a sticky event bit when it reaches zero, so
// firmware can bound a wait without reading the cycle counter in a loop.
#pragma once

#include <cstdint>

#include "emulator/kernel/event_queue.hpp"
#include "emulator/machine/clocked_core.hpp"

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

  bool expired() const { return expired_; }
  bool running() const { return event_.valid(); }
  // Countdowns started and expired.
  std::uint64_t activity() const { return activity_; }

private:
  kernel::Kernel& kernel_;
  const machine::ClockedCore& core_;
  kernel::EventId event_;
  std::uint64_t expiry_cycle_ = 0;
  bool expired_ = false;
  std::uint64_t activity_ = 0;
};

} // namespace lanai::nic
