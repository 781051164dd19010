// Busy-time bookkeeping of one DMA engine of the card: a 0/1 time-weighted
// level ("<prefix>.busy", its average is the utilisation) and a picosecond
// total ("<prefix>.busy_ps") from which device overlap can be measured.
#pragma once

#include <algorithm>
#include <string>

#include "kernel/sim_time.hpp"
#include "kernel/statistics.hpp"

namespace lanai::nic {

class BusyMeter {
public:
  BusyMeter(kernel::StatsRegistry& stats, const std::string& prefix)
      : level_(stats.time_weighted(prefix + ".busy")), total_(stats.counter(prefix + ".busy_ps")) {}

  void begin(kernel::SimTime t) {
    if (busy_) return;
    busy_ = true;
    since_ = clamp(t);
    level_.set(since_, 1.0);
  }

  void end(kernel::SimTime t) {
    if (!busy_) return;
    busy_ = false;
    const kernel::SimTime until = clamp(t);
    total_.add(static_cast<std::uint64_t>((until - since_).ps()));
    level_.set(until, 0.0);
  }

  bool busy() const { return busy_; }
  // Busy time of the finished periods.
  kernel::SimTime total() const { return kernel::picoseconds(static_cast<std::int64_t>(total_.value())); }

private:
  // The level refuses to go back in time; an engine started at a core
  // access and stopped by a kernel event never should, but a stray order
  // must not abort a whole run over a statistic.
  kernel::SimTime clamp(kernel::SimTime t) const { return std::max(t, level_.last_change()); }

  kernel::TimeWeighted& level_;
  kernel::Counter& total_;
  bool busy_ = false;
  kernel::SimTime since_{};
};

} // namespace lanai::nic
