// One point of a jitter experiment: node 0 sends on many channels (VIs) to
// the receiver nodes, each channel at its own rate, for a fixed stretch of
// virtual time; every message's send and receipt times are kept.
//   CBR: fixed-size messages injected at exactly the negotiated rate.
//   VBR: one message per video frame at the frame rate, sized by the trace.
//   best effort: fixed-size messages with exponential gaps (mean rate).
// QoS channels ask the driver for their rate (VIP_QOS); best effort asks
// for none. A channel whose send ring is full keeps its messages on the
// host, in order, until sends complete; the other channels go on at their
// rates, and every message produced is sent before the run ends. Receivers
// keep enough receives posted that a channel at its rate never runs dry;
// VIA has no flow control, so a receiver that falls behind loses messages
// (counted, not hidden).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "emulator/host/cluster.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "lanai/via_abi.h"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/trace/trace_recorder.hpp"
#include "bench/workloads/device_utilisation.hpp"
#include "bench/workloads/fault_counts.hpp"

namespace lanai::bench {

enum class Traffic : std::uint8_t { cbr, vbr, best_effort };

struct ChannelSpec {
  std::string class_name; // label of the channel's class, e.g. "8MBps" or "BE"
  Traffic traffic = Traffic::cbr;
  double rate_mbytes_per_s = 0;    // negotiated (CBR, VBR) or mean (best effort) rate
  std::uint32_t message_bytes = 0; // CBR and best effort: every message's size
  std::uint32_t receiver = 1;      // receiving node (1 .. receivers)
  // VBR: one message per frame, sizes in bytes, sent every 1/frame_rate s.
  std::vector<std::uint32_t> frames;
  double frame_rate = 0;
};

struct StreamPointSpec {
  profile::HardwareProfile profile;
  std::string firmware;        // name of a built firmware (svia, pvia, qosvia, ...)
  std::uint32_t receivers = 1; // nodes 1 .. receivers receive; node 0 sends
  std::uint32_t reliability = VIP_SERVICE_UNRELIABLE; // every channel's VIs
  std::vector<ChannelSpec> channels;
  kernel::SimTime warmup{};   // traffic before this is sent but not measured
  kernel::SimTime duration{}; // measured stretch after the warm-up
  std::uint64_t seed = 1;
  trace::Recorder* trace = nullptr;
  host::FirmwareProfiler* profiler = nullptr;
};

struct ChannelResult {
  // Per message sent in the measured stretch, in send order: when the
  // sender posted it and when its receiver saw it complete (-1: never).
  std::vector<std::int64_t> sent_ps;
  std::vector<std::int64_t> received_ps;
  double interval_ps = 0;      // negotiated inter-arrival time I (CBR, VBR); 0 for best effort
  std::uint64_t lost = 0;      // messages the receiver never saw
  std::uint64_t corrupted = 0; // received with wrong bytes or length
};

struct StreamPointResult {
  std::vector<ChannelResult> channels; // same order as spec.channels
  host::RunOutcome outcome = host::RunOutcome::finished;
  std::string detail;   // why the run failed, if it did
  bool stopped = false; // the stop flag was raised before the end
  double end_us = 0;    // virtual time at the end of the run
  // How busy the sender's card (node 0) and each receiver's were over the
  // measured stretch (zero if the run ended before it did).
  CardUtilisation sender;
  std::vector<CardUtilisation> receivers;
  std::vector<LinkFaultCount> faults; // what injected faults did (none without)
};

// Runs one point to completion. `stop` (may be null), when raised, ends the
// run early (result.stopped). Throws std::invalid_argument for a spec that
// cannot run (no channels, a receiver outside 1..receivers, zero sizes or
// rates, an unknown firmware).
StreamPointResult run_stream_point(const StreamPointSpec& spec,
                                   const std::atomic<bool>* stop = nullptr);

} // namespace lanai::bench
