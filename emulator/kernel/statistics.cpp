// Named measurements: counter, time-weighted level and sample distribution
// arithmetic, the registry that owns them, and its deterministic reports.
#include "emulator/kernel/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace lanai::kernel {

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

void validate_name(std::string_view name) {
  bool segment_empty = true;
  for (const char c : name) {
    if (c == '.') {
      if (segment_empty)
        break;
      segment_empty = true;
    } else if (is_name_char(c)) {
      segment_empty = false;
    } else {
      segment_empty = true; // forces the error below
      break;
    }
  }
  if (segment_empty)
    throw std::invalid_argument(
        fmt::format("lanai::kernel: invalid statistic name '{}': use dot-separated segments of "
                    "letters, digits, '_' and '-'",
                    name));
}

// Shortest text that reads back as the same double; JSON has no NaN or
// infinity, so those become null.
std::string json_number(double v) {
  if (!std::isfinite(v))
    return "null";
  return fmt::format("{}", v);
}

std::string text_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "-"; }

} // namespace

// ---- TimeWeighted ----

void TimeWeighted::set(SimTime t, double value) {
  if (t < last_change_)
    throw std::logic_error(fmt::format(
        "lanai::kernel: time-weighted value set at {} ps, before its last change at {} ps", t.ps(),
        last_change_.ps()));
  area_ += current_ * static_cast<double>((t - last_change_).ps());
  last_change_ = t;
  current_ = value;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

void TimeWeighted::reset(SimTime t) {
  if (t < last_change_)
    throw std::logic_error("lanai::kernel: time-weighted reset before its last change");
  start_ = t;
  last_change_ = t;
  area_ = 0.0;
  min_ = current_;
  max_ = current_;
}

double TimeWeighted::average(SimTime now) const {
  if (now < last_change_)
    throw std::logic_error("lanai::kernel: time-weighted average asked for before its last change");
  const auto span = static_cast<double>((now - start_).ps());
  if (span <= 0.0)
    return current_;
  const double area = area_ + current_ * static_cast<double>((now - last_change_).ps());
  return area / span;
}

// ---- Histogram ----

void Histogram::record(double sample) {
  if (samples_.empty()) {
    min_ = sample;
    max_ = sample;
  } else {
    min_ = std::min(min_, sample);
    max_ = std::max(max_, sample);
    if (sorted_ && sample < samples_.back())
      sorted_ = false;
  }
  samples_.push_back(sample);
  sum_ += sample;
  const double delta = sample - mean_;
  mean_ += delta / static_cast<double>(samples_.size());
  m2_ += delta * (sample - mean_);
}

void Histogram::reset() { *this = Histogram{}; }

double Histogram::min() const { return samples_.empty() ? not_a_number : min_; }
double Histogram::max() const { return samples_.empty() ? not_a_number : max_; }
double Histogram::mean() const { return samples_.empty() ? not_a_number : mean_; }

double Histogram::stddev() const {
  if (samples_.empty())
    return not_a_number;
  return std::sqrt(m2_ / static_cast<double>(samples_.size()));
}

void Histogram::sort_if_needed() const {
  if (sorted_)
    return;
  std::sort(samples_.begin(), samples_.end());
  sorted_ = true;
}

double Histogram::percentile(double p) const {
  if (!(p >= 0.0 && p <= 100.0))
    throw std::invalid_argument(fmt::format("lanai::kernel: percentile {} is outside [0, 100]", p));
  if (samples_.empty())
    return not_a_number;
  sort_if_needed();
  const double rank = p / 100.0 * static_cast<double>(samples_.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(rank));
  const std::size_t above = std::min(below + 1, samples_.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return samples_[below] + fraction * (samples_[above] - samples_[below]);
}

// ---- StatsRegistry ----

std::string_view kind_name(const Stat& stat) {
  switch (stat.index()) {
  case 0:
    return "counter";
  case 1:
    return "time_weighted";
  default:
    return "histogram";
  }
}

template <typename T>
T& StatsRegistry::get_or_create(std::string_view name, const char* kind) {
  auto it = stats_.find(name);
  if (it == stats_.end()) {
    validate_name(name);
    it = stats_.emplace(std::string(name), Stat(std::in_place_type<T>)).first;
  }
  if (T* stat = std::get_if<T>(&it->second))
    return *stat;
  throw std::logic_error(fmt::format("lanai::kernel: statistic '{}' is a {}, not a {}", name,
                                     kind_name(it->second), kind));
}

Counter& StatsRegistry::counter(std::string_view name) {
  return get_or_create<Counter>(name, "counter");
}

TimeWeighted& StatsRegistry::time_weighted(std::string_view name) {
  return get_or_create<TimeWeighted>(name, "time_weighted");
}

Histogram& StatsRegistry::histogram(std::string_view name) {
  return get_or_create<Histogram>(name, "histogram");
}

const Stat* StatsRegistry::find(std::string_view name) const {
  const auto it = stats_.find(name);
  return it == stats_.end() ? nullptr : &it->second;
}

void StatsRegistry::for_each(
    const std::function<void(const std::string& name, const Stat& stat)>& visit) const {
  for (const auto& [name, stat] : stats_)
    visit(name, stat);
}

std::string StatsRegistry::to_json(std::optional<SimTime> now) const {
  std::string out = "{";
  bool first = true;
  for (const auto& [name, stat] : stats_) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += fmt::format("\"{}\": ", name); // names cannot contain characters needing escapes
    if (const auto* c = std::get_if<Counter>(&stat)) {
      out += fmt::format("{{\"kind\": \"counter\", \"value\": {}}}", c->value());
    } else if (const auto* t = std::get_if<TimeWeighted>(&stat)) {
      const SimTime end = now.value_or(t->last_change());
      out += fmt::format(
          "{{\"average\": {}, \"current\": {}, \"end_ps\": {}, \"kind\": \"time_weighted\", "
          "\"max\": {}, \"min\": {}, \"start_ps\": {}}}",
          json_number(t->average(end)), json_number(t->current()), end.ps(), json_number(t->max()),
          json_number(t->min()), t->start().ps());
    } else {
      const auto& h = std::get<Histogram>(stat);
      out += fmt::format(
          "{{\"count\": {}, \"kind\": \"histogram\", \"max\": {}, \"mean\": {}, \"min\": {}, "
          "\"p50\": {}, \"p90\": {}, \"p99\": {}, \"stddev\": {}, \"sum\": {}}}",
          h.count(), json_number(h.max()), json_number(h.mean()), json_number(h.min()),
          json_number(h.percentile(50)), json_number(h.percentile(90)),
          json_number(h.percentile(99)), json_number(h.stddev()), json_number(h.sum()));
    }
  }
  out += first ? "}\n" : "\n}\n";
  return out;
}

std::string StatsRegistry::to_text(std::optional<SimTime> now) const {
  std::size_t width = 0;
  for (const auto& entry : stats_)
    width = std::max(width, entry.first.size());
  std::string out;
  for (const auto& [name, stat] : stats_) {
    out += fmt::format("{:<{}}  {:<13}", name, width, kind_name(stat));
    if (const auto* c = std::get_if<Counter>(&stat)) {
      out += fmt::format("  value={}", c->value());
    } else if (const auto* t = std::get_if<TimeWeighted>(&stat)) {
      const SimTime end = now.value_or(t->last_change());
      out += fmt::format("  avg={} cur={} min={} max={} window=[{}, {}] ps",
                         text_number(t->average(end)), text_number(t->current()),
                         text_number(t->min()), text_number(t->max()), t->start().ps(), end.ps());
    } else {
      const auto& h = std::get<Histogram>(stat);
      out += fmt::format("  n={} min={} mean={} max={} sd={} p50={} p90={} p99={}", h.count(),
                         text_number(h.min()), text_number(h.mean()), text_number(h.max()),
                         text_number(h.stddev()), text_number(h.percentile(50)),
                         text_number(h.percentile(90)), text_number(h.percentile(99)));
    }
    out += '\n';
  }
  return out;
}

} // namespace lanai::kernel
