// Busy-time bookkeeping of one DMA engine of the card: a 0/1 time-weighted
// level ("<prefix>.busy", its average is the utilisation) and a picosecond
// total ("<prefix>.busy_ps") from which device overlap can be measured.
// An OverlapMeter watches two BusyMeters and keeps the same pair of
// statistics for the time both are busy at once.
#pragma once

#include <algorithm>
#include <string>

#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/statistics.hpp"

namespace lanai::nic {

// "<prefix>" (0/1 time-weighted level, 1 while both watched engines are
// busy) and "<prefix>_ps" (picoseconds of such overlap, finished periods).
// Fed by the BusyMeters it watches with the very times they record, so the
// overlap level changes exactly when one of the two busy levels does.
class OverlapMeter {
public:
  OverlapMeter(kernel::StatsRegistry& stats, const std::string& prefix)
      : level_(stats.time_weighted(prefix)), total_(stats.counter(prefix + "_ps")) {}

  // Engine `which` (0 or 1) became busy or idle at `t`.
  void change(int which, bool busy, kernel::SimTime t) {
    busy_[which & 1] = busy;
    const bool both = busy_[0] && busy_[1];
    if (both == overlapping_)
      return;
    const kernel::SimTime at = std::max(t, level_.last_change());
    if (both) {
      since_ = at;
    } else {
      total_.add(static_cast<std::uint64_t>((at - since_).ps()));
    }
    overlapping_ = both;
    level_.set(at, both ? 1.0 : 0.0);
  }

  bool overlapping() const { return overlapping_; }
  // Overlap time of the finished periods.
  kernel::SimTime total() const {
    return kernel::picoseconds(static_cast<std::int64_t>(total_.value()));
  }

private:
  kernel::TimeWeighted& level_;
  kernel::Counter& total_;
  bool busy_[2] = {false, false};
  bool overlapping_ = false;
  kernel::SimTime since_{};
};

class BusyMeter {
public:
  BusyMeter(kernel::StatsRegistry& stats, const std::string& prefix)
      : level_(stats.time_weighted(prefix + ".busy")), total_(stats.counter(prefix + ".busy_ps")) {}

  void begin(kernel::SimTime t) {
    if (busy_)
      return;
    busy_ = true;
    since_ = clamp(t);
    level_.set(since_, 1.0);
    if (overlap_)
      overlap_->change(overlap_index_, true, since_);
  }

  void end(kernel::SimTime t) {
    if (!busy_)
      return;
    busy_ = false;
    const kernel::SimTime until = clamp(t);
    total_.add(static_cast<std::uint64_t>((until - since_).ps()));
    level_.set(until, 0.0);
    if (overlap_)
      overlap_->change(overlap_index_, false, until);
  }

  // Reports every change of this level to `overlap` as its engine `index`.
  void watch_overlap(OverlapMeter* overlap, int index) {
    overlap_ = overlap;
    overlap_index_ = index;
    if (overlap_ && busy_)
      overlap_->change(overlap_index_, true, since_);
  }

  bool busy() const { return busy_; }
  // Busy time of the finished periods.
  kernel::SimTime total() const {
    return kernel::picoseconds(static_cast<std::int64_t>(total_.value()));
  }
  // Busy time up to `t`: the finished periods and the part of the current
  // one before `t`.
  kernel::SimTime busy_until(kernel::SimTime t) const {
    return total() + (busy_ && t > since_ ? t - since_ : kernel::SimTime::zero());
  }

private:
  // The level refuses to go back in time; an engine started at a core
  // access and stopped by a kernel event never should, but a stray order
  // must not abort a whole run over a statistic.
  kernel::SimTime clamp(kernel::SimTime t) const { return std::max(t, level_.last_change()); }

  kernel::TimeWeighted& level_;
  kernel::Counter& total_;
  bool busy_ = false;
  kernel::SimTime since_{};
  OverlapMeter* overlap_ = nullptr;
  int overlap_index_ = 0;
};

} // namespace lanai::nic
