// Ping-bulk between node 0 and node 1 over two one-way VIs: node 0 posts a
// window of W messages on the first, then waits for W back on the second;
// node 1 receives the W, then sends W back. The average 1-way latency per
// message is a round's time over 2W. VIA has no flow control: node 1 posts
// `recv_depth` receives per round (default W), and a window larger than
// that overruns it — the messages that find no receive posted are dropped
// by the firmware, node 0 never gets its W back, and the run ends as an
// overrun (reported, not hidden). With credit flow control on both VIs,
// node 1 keeps `recv_depth` receives posted, posting one again as each is
// taken, and node 0's card holds what node 1 has no receive for yet.
#pragma once

#include <cstdint>
#include <string>

#include <vipl.h>

#include "emulator/host/cluster.hpp"
#include "bench/workloads/bench_cluster.hpp"

namespace lanai::bench {

struct PingBulkSpec {
  ClusterSetup setup;           // nodes is forced to 2
  std::uint32_t size = 4;       // message bytes
  std::uint32_t window = 1;     // W, at most VIA_QUEUE_DEPTH
  std::uint32_t rounds = 20;    // timed rounds
  std::uint32_t warmup = 1;     // untimed rounds first
  std::uint32_t recv_depth = 0; // receives node 1 posts per round; 0 = the window
  bool flow_control = false;    // credit flow control on both VIs
  std::uint32_t reliability = VIP_SERVICE_UNRELIABLE; // both VIs'
};

struct PingBulkResult {
  double one_way_us = 0; // mean over the timed rounds of round time / (2W)
  bool overrun = false;  // the window overran the receiver
  std::string failure;   // why the run failed (set also for an overrun)
  bool ok() const { return failure.empty(); }
};

// Throws std::invalid_argument for a bad size, window, depth or no rounds.
PingBulkResult run_pingbulk(const PingBulkSpec& spec);

} // namespace lanai::bench
