// Reducing a run's per-message times to the jitter of each QoS class and
// the latency of the best-effort channel.
#include "bench/sweep/jitter_results.hpp"

#include <stdexcept>

namespace lanai::bench {

std::string outcome_name(host::RunOutcome outcome) {
  switch (outcome) {
  case host::RunOutcome::finished:
    return "finished";
  case host::RunOutcome::deadlock:
    return "deadlock";
  case host::RunOutcome::firmware_stop:
    return "firmware_stop";
  case host::RunOutcome::time_limit:
    return "time_limit";
  }
  return "unknown";
}

std::uint64_t PointRecord::lost() const {
  std::uint64_t n = best_effort ? best_effort->lost : 0;
  for (const auto& c : classes)
    n += c.lost;
  return n;
}

double PointRecord::receiver_hdma_busy() const {
  double most = 0;
  for (const CardUtilisation& u : receivers)
    most = std::max(most, u.hdma);
  return most;
}

std::uint64_t PointRecord::corrupted() const {
  std::uint64_t n = best_effort ? best_effort->corrupted : 0;
  for (const auto& c : classes)
    n += c.corrupted;
  return n;
}

std::size_t JitterSweep::kept() const {
  std::size_t n = 0;
  for (const auto& r : records)
    n += r.has_value();
  return n;
}

std::optional<double> JitterSweep::knee_mbytes_per_s(std::size_t firmware) const {
  for (const auto& rec : records) {
    if (!rec || rec->firmware != firmware || rec->status != PointStatus::ok)
      continue;
    for (const ClassMetrics& m : rec->classes)
      if (m.jitter.intervals > 0 && m.jitter.theta() >= kKneeTheta)
        return rec->total_mbytes_per_s;
  }
  return std::nullopt;
}

std::size_t JitterSweep::failed() const {
  std::size_t n = 0;
  for (const auto& r : records)
    n += r && r->status == PointStatus::failed;
  return n;
}

namespace {

std::vector<std::int64_t> receipts(const ChannelResult& ch) {
  std::vector<std::int64_t> out;
  out.reserve(ch.received_ps.size());
  for (const std::int64_t t : ch.received_ps)
    if (t >= 0)
      out.push_back(t);
  return out;
}

} // namespace

PointRecord jitter_record(const Experiment& e, const LoadPoint& load,
                          const StreamPointResult& result) {
  const auto& classes = e.jitter.classes;
  PointRecord r;
  r.total_mbytes_per_s = load.total_mbytes_per_s;
  r.outcome = outcome_name(result.outcome);
  r.detail = result.detail;
  r.end_us = result.end_us;
  r.status = result.outcome == host::RunOutcome::finished ? PointStatus::ok : PointStatus::failed;
  r.sender = result.sender;
  r.receivers = result.receivers;
  r.faults = result.faults;

  // A failed run's figures would mislead: it keeps only why it failed.
  if (r.status == PointStatus::failed)
    return r;

  const std::size_t expected = load.qos_channels() + (e.jitter.best_effort ? 1 : 0);
  if (result.channels.size() != expected)
    throw std::logic_error("jitter_record: the run's channels do not match the point");

  std::size_t next = 0;
  for (std::size_t ci = 0; ci < classes.size(); ++ci) {
    ClassMetrics m;
    m.channels = load.channels[ci];
    std::vector<JitterResult> per_channel;
    for (std::uint32_t k = 0; k < m.channels; ++k) {
      const ChannelResult& ch = result.channels[next++];
      const auto times = receipts(ch);
      per_channel.push_back(jitter(times, classes[ci].interval_ps()));
      m.messages += ch.sent_ps.size();
      m.lost += ch.lost;
      m.corrupted += ch.corrupted;
    }
    m.jitter = pool(per_channel);
    r.classes.push_back(m);
  }
  if (e.jitter.best_effort) {
    const ChannelResult& ch = result.channels[next];
    BestEffortMetrics be;
    std::vector<double> latencies;
    for (std::size_t i = 0; i < ch.sent_ps.size() && i < ch.received_ps.size(); ++i)
      if (ch.received_ps[i] >= 0)
        latencies.push_back(static_cast<double>(ch.received_ps[i] - ch.sent_ps[i]) / 1e6);
    be.latency_us = summarize(latencies);
    be.messages = ch.sent_ps.size();
    be.lost = ch.lost;
    be.corrupted = ch.corrupted;
    r.best_effort = be;
  }
  return r;
}

} // namespace lanai::bench
