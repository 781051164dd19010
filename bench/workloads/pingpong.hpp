// Ping-pong over one VI between node 0 and node 1: node 0 sends `size`
// bytes, node 1 sends them back; after `warmup` untimed round trips, each
// of `iters` round trips gives one 1-way latency sample (half the round
// trip, measured by node 0's host clock). Node 0 checks every byte that
// comes back. With `breakdown`, a device trace of the run gives the
// per-operation times of the published table for node 0's messages.
//
// When each side posts its receives: `on_arrival`, the usual application
// loop, reposts a receive as each message arrives, before answering it, so
// that the card takes that doorbell (and PVIA fetches the descriptor) on
// the critical path; `ahead` keeps receives posted two rounds ahead, posting
// the next one once the round's send is done, while the side waits for the
// other: the card takes the doorbell while idle, as with the pre-posted
// receives of the published latency breakdown.
//
// Fragmentation, two ways: `fragmentation` is the card's policy on both
// VIs (lanai_emu_set_fragmentation), and `host_fragments` > 1 has the host
// programs cut every message into that many sends of (nearly) equal size,
// as a messaging layer over the VIPL does, charging `send_copy` before
// posting each fragment and `recv_copy` after each one arrives.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/host/cluster.hpp"
#include "bench/workloads/bench_cluster.hpp"
#include "vipl.h"
#include "bench/workloads/breakdown.hpp"

namespace lanai::bench {

// Host CPU work charged per fragment: g + bytes G.
struct HostCopy {
  double g_us = 0.0;
  double G_us_per_kb = 0.0; // per 1024 bytes
};

enum class ReceivePosting { on_arrival, ahead };

// The loop of the published latency breakdown, whose receive descriptors
// were pre-posted: `lanai-emu pingpong --breakdown` and the calibration take
// the breakdown rows from it.
inline constexpr ReceivePosting kBreakdownReceives = ReceivePosting::ahead;

// "on-arrival" or "ahead"; parse_receive_posting throws std::invalid_argument
// for any other name.
const char* receive_posting_name(ReceivePosting posting);
ReceivePosting parse_receive_posting(std::string_view name);

struct PingPongSpec {
  ClusterSetup setup;        // nodes is forced to 2
  std::uint32_t size = 4;    // message bytes, 1 .. 65536
  std::uint32_t iters = 100; // timed round trips
  std::uint32_t warmup = 1;  // untimed round trips first
  bool breakdown = false;    // only with one host fragment
  ReceivePosting receives = ReceivePosting::on_arrival;
  std::uint32_t reliability = VIP_SERVICE_UNRELIABLE; // both VIs'
  LANAI_EMU_FRAGMENTATION fragmentation{VIA_FRAG_NONE, 0, {0, 0, 0, 0}};
  std::uint32_t host_fragments = 1; // 1 .. size, at most kMaxHostFragments
  HostCopy send_copy, recv_copy;
  trace::Recorder* trace = nullptr;           // also record into this (e.g. for --trace)
  host::FirmwareProfiler* profiler = nullptr; // cycles per firmware function, if set
};

// A VI queue holds VIA_QUEUE_DEPTH descriptors: every fragment of a message
// has its receive posted before the message comes.
inline constexpr std::uint32_t kMaxHostFragments = VIA_QUEUE_DEPTH;

// `bytes` cut into `k` sends: the first bytes % k are one byte longer.
std::vector<std::uint32_t> host_fragment_sizes(std::uint32_t bytes, std::uint32_t k);

struct PingPongResult {
  std::vector<double> one_way_us; // one sample per timed round trip
  // When each fragment of the last round trip's pong reached node 0's
  // program (after its receive work), from the round trip's start: with
  // several host fragments, node 1 sends them back to back.
  std::vector<double> pong_arrivals_us;
  std::optional<Breakdown> breakdown;
  host::RunReport report;
  std::string failure; // empty on success: why the run failed
  bool ok() const { return failure.empty(); }
};

// Throws std::invalid_argument for a bad size, zero iterations, a bad
// fragment count or a breakdown of host fragments; the firmware's refusal
// of the policy is the run's failure. Also throws the
// cluster's errors for an unknown firmware or a bad profile.
PingPongResult run_pingpong(const PingPongSpec& spec);

// The median 1-way latency of `spec`'s run; on a failed run or a bad spec,
// nothing, with the reason in `failure`.
std::optional<double> median_one_way_us(const PingPongSpec& spec, std::string& failure);

// The run report as one line ("deadlock: ...", "node 1 returned 3", ...),
// with the nodes' failures; empty for success.
std::string describe_failure(host::Cluster& cluster, const host::RunReport& report);

} // namespace lanai::bench
