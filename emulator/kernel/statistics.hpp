// Named measurements collected during a run: event counters, time-weighted
// levels (queue depths, busy flags) and sample distributions (latencies),
// kept in one registry under dotted names such as "node0.hdma.busy".
#pragma once

#include "emulator/kernel/sim_time.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lanai::kernel {

class Counter {
public:
  void add(std::uint64_t n = 1) { value_ += n; }
  void reset() { value_ = 0; }
  std::uint64_t value() const { return value_; }

private:
  std::uint64_t value_ = 0;
};

// A level that holds its value between changes. The series starts at value 0
// at time 0 unless reset() says otherwise; averages weight each value by how
// long it was held.
class TimeWeighted {
public:
  // Records that the level becomes `value` at time t; t must not precede the
  // previous change (throws std::logic_error).
  void set(SimTime t, double value);
  void add(SimTime t, double delta) { set(t, current_ + delta); }

  // Forgets the history and starts a new window at t, keeping the current
  // value; used to discard a warm-up period.
  void reset(SimTime t);

  double current() const { return current_; }
  double min() const { return min_; }
  double max() const { return max_; }
  SimTime start() const { return start_; }
  SimTime last_change() const { return last_change_; }

  // Average over [start(), now]; now must not precede last_change(). An
  // empty window has no duration to weight by, so it reports current().
  double average(SimTime now) const;

private:
  SimTime start_ = SimTime::zero();
  SimTime last_change_ = SimTime::zero();
  double current_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
  // Integral of the level over [start_, last_change_], in value * ps.
  double area_ = 0.0;
};

// A sample distribution. Samples are kept, so percentiles are exact: they use
// linear interpolation between closest ranks (rank = p/100 * (count - 1) over
// the sorted samples, the common spreadsheet and NumPy definition).
class Histogram {
public:
  void record(double sample);
  void reset();

  std::uint64_t count() const { return samples_.size(); }
  // On an empty histogram these return NaN, not a made-up zero.
  double min() const;
  double max() const;
  double mean() const;
  // Population standard deviation (divides by count).
  double stddev() const;
  double sum() const { return sum_; }
  // p in [0, 100]; throws std::invalid_argument outside it.
  double percentile(double p) const;

  const std::vector<double>& samples() const { return samples_; }

private:
  void sort_if_needed() const;

  // Sorted lazily on the first percentile query after new samples.
  mutable std::vector<double> samples_;
  mutable bool sorted_ = true;
  double sum_ = 0.0;
  // Welford's running mean and sum of squared deviations: numerically
  // stable for the large latency values typical in picoseconds.
  double mean_ = 0.0;
  double m2_ = 0.0;
  double min_ = 0.0;
  double max_ = 0.0;
};

using Stat = std::variant<Counter, TimeWeighted, Histogram>;

// Owns every measurement of a run. References returned by the accessors stay
// valid for the registry's lifetime, so components look a stat up once at
// construction and update it directly afterwards.
class StatsRegistry {
public:
  // Return the stat of that name, creating it on first use. Names are
  // non-empty dot-separated segments of letters, digits, '_' and '-';
  // anything else throws std::invalid_argument. Asking for a name that
  // exists with a different kind throws std::logic_error.
  Counter& counter(std::string_view name);
  TimeWeighted& time_weighted(std::string_view name);
  Histogram& histogram(std::string_view name);

  bool contains(std::string_view name) const { return stats_.find(name) != stats_.end(); }
  const Stat* find(std::string_view name) const;
  std::size_t size() const { return stats_.size(); }

  // Visits every stat in ascending name order.
  void for_each(const std::function<void(const std::string& name, const Stat& stat)>& visit) const;

  // Time-weighted averages need an end time; without `now`, each series is
  // averaged up to its own last change. Output is deterministic: keys are
  // sorted and numbers use shortest round-trip formatting.
  std::string to_json(std::optional<SimTime> now = std::nullopt) const;
  std::string to_text(std::optional<SimTime> now = std::nullopt) const;

private:
  template <typename T>
  T& get_or_create(std::string_view name, const char* kind);

  std::map<std::string, Stat, std::less<>> stats_;
};

// Name of a stat's kind as used in reports: "counter", "time_weighted" or
// "histogram".
std::string_view kind_name(const Stat& stat);

} // namespace lanai::kernel
