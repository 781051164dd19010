// The shape the stream and saturation experiments share: one sender on
// node 0 and a receiver on each of nodes 1..N of one cluster, run to the
// end, with how busy each card was over the measured stretch.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/workloads/bench_cluster.hpp"
#include "bench/workloads/device_utilisation.hpp"
#include "bench/workloads/fault_counts.hpp"

namespace lanai::bench {

struct FanOutOutcome {
  host::RunOutcome outcome = host::RunOutcome::finished;
  std::string detail;                 // why the run failed, if it did
  double end_us = 0;                  // virtual time at the end of the run
  std::vector<LinkFaultCount> faults; // what injected faults did (none without)
  // Packets node 0's firmware sent again: its counters named
  // *_retransmissions (0 for firmware that keeps none).
  std::uint64_t sender_retransmissions = 0;
};

// Runs `sender` on node 0 and `receiver(r)` on node r for r in
// 1..setup.nodes-1. `attach` sees the cluster before the programs start (so
// that they can reach it). Idle stretches of up to 20 ms of virtual time are
// not a deadlock: receivers may wake only now and then.
FanOutOutcome run_fan_out(const ClusterSetup& setup,
                          const std::function<void(host::Cluster&)>& attach,
                          std::function<int()> sender,
                          const std::function<int(std::uint32_t)>& receiver);

// The window's figures split into the sender's card (node 0) and the
// receivers' (nodes 1..); false, and nothing set, if it never closed.
bool split_utilisation(const UtilisationWindow& window, CardUtilisation& sender,
                       std::vector<CardUtilisation>& receivers);

} // namespace lanai::bench
