// Ping-pong over one VI between node 0 and node 1: node 0 sends `size`
// bytes, node 1 sends them back; after `warmup` untimed round trips, each
// of `iters` round trips gives one 1-way latency sample (half the round
// trip, measured by node 0's host clock). Node 0 checks every byte that
// comes back. With `breakdown`, a device trace of the run gives the
// per-operation times of the published table for node 0's messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/cluster.hpp"
#include "workloads/bench_cluster.hpp"
#include "workloads/breakdown.hpp"

namespace lanai::bench {

struct PingPongSpec {
  ClusterSetup setup;           // nodes is forced to 2
  std::uint32_t size = 4;       // message bytes, 1 .. 65536
  std::uint32_t iters = 100;    // timed round trips
  std::uint32_t warmup = 1;     // untimed round trips first
  bool breakdown = false;
  trace::Recorder* trace = nullptr; // also record into this (e.g. for --trace)
};

struct PingPongResult {
  std::vector<double> one_way_us; // one sample per timed round trip
  std::optional<Breakdown> breakdown;
  host::RunReport report;
  std::string failure;            // empty on success: why the run failed
  bool ok() const { return failure.empty(); }
};

// Throws std::invalid_argument for a bad size or zero iterations, and the
// cluster's errors for an unknown firmware or a bad profile.
PingPongResult run_pingpong(const PingPongSpec& spec);

// The run report as one line ("deadlock: ...", "node 1 returned 3", ...),
// with the nodes' failures; empty for success.
std::string describe_failure(host::Cluster& cluster, const host::RunReport& report);

} // namespace lanai::bench
