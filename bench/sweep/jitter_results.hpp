// What a jitter sweep keeps of each point: per QoS class the pooled jitter
// of its channels, for the best-effort channel its 1-way latency, and the
// run's outcome. Only these figures reach the result files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/load_points.hpp"
#include "bench/metrics/jitter.hpp"
#include "bench/metrics/latency_summary.hpp"
#include "bench/workloads/stream_point.hpp"

namespace lanai::bench {

struct ClassMetrics {
  std::uint32_t channels = 0;
  JitterResult jitter;        // pooled over the class's channels
  std::uint64_t messages = 0; // sent in the measured stretch
  std::uint64_t lost = 0;
  std::uint64_t corrupted = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const ClassMetrics&) const = default;
};

struct BestEffortMetrics {
  LatencySummary latency_us; // receipt - send of each received message
  std::uint64_t messages = 0;
  std::uint64_t lost = 0;
  std::uint64_t corrupted = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const BestEffortMetrics&) const = default;
};

enum class PointStatus : std::uint8_t { ok, failed };

struct PointRecord {
  std::size_t index = 0;
  std::size_t firmware = 0;
  std::size_t load = 0;
  double total_mbytes_per_s = 0;
  PointStatus status = PointStatus::ok;
  std::string outcome; // "finished", "deadlock", "firmware_stop", "time_limit", "error"
  std::string detail;  // why it failed
  double end_us = 0;   // virtual time at the end of the run
  std::vector<ClassMetrics> classes; // per class, in the classes' order
  std::optional<BestEffortMetrics> best_effort;
  // How busy the engines were over the measured stretch: the sender's card,
  // and each receiver's (nodes 1..receivers).
  CardUtilisation sender;
  std::vector<CardUtilisation> receivers;
  std::vector<LinkFaultCount> faults; // per link, when the profile injects faults
  double receiver_hdma_busy() const;  // the busiest receiver's host DMA
  std::uint64_t lost() const;
  std::uint64_t corrupted() const;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const PointRecord&) const = default;
};

// A whole sweep as the result files see it: records by point index
// (firmware-major), empty for points that did not run to their end.
struct JitterSweep {
  Experiment experiment;
  std::vector<LoadPoint> loads;
  std::vector<std::optional<PointRecord>> records;
  bool interrupted = false;
  bool quick = false; // durations were divided for a smoke run
  std::size_t kept() const;
  std::size_t failed() const;
  // The firmware's knee: the first total load (in load order) at which some
  // QoS class's theta reaches kKneeTheta; none if no point kept does.
  std::optional<double> knee_mbytes_per_s(std::size_t firmware) const;
};

// The jitter fraction past which a class counts as no longer served.
inline constexpr double kKneeTheta = 0.05;

std::string outcome_name(host::RunOutcome outcome);

// The metrics of one finished run. Lost messages (received_ps < 0) are left
// out of the jitter and latency figures and counted instead. A run that did
// not finish gives a failed record without figures.
PointRecord jitter_record(const Experiment& experiment, const LoadPoint& load,
                          const StreamPointResult& result);

} // namespace lanai::bench
