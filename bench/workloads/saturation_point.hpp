// One point of a saturation experiment: node 0 sends equal messages back to
// back, as fast as its card takes them, to nodes 1..receivers (one VI each,
// in turn); the receivers keep enough receives posted that nothing
// overruns. It measures the throughput the receivers see over a stretch of
// virtual time after a warm-up, and how busy each card's engines were.
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

struct SaturationSpec {
  profile::HardwareProfile profile;
  std::string firmware;
  std::uint32_t message_bytes = 4096;
  std::uint32_t receivers = 1;                        // 1..64
  std::uint32_t reliability = VIP_SERVICE_UNRELIABLE; // every VI's
  kernel::SimTime warmup{};
  kernel::SimTime duration{};
  std::uint64_t seed = 1;
  trace::Recorder* trace = nullptr;
  host::FirmwareProfiler* profiler = nullptr;
};

struct SaturationResult {
  double throughput_mbytes_per_s = 0;     // MB = 10^6 bytes, all receivers together
  std::uint64_t messages = 0;             // received in the measured stretch
  std::uint64_t sent = 0;                 // sent in all
  std::uint64_t lost = 0;                 // sent and never received
  std::uint64_t corrupted = 0;            // received with wrong bytes or length, or out of order
  std::uint64_t retransmissions = 0;      // packets the sender's card sent again
  CardUtilisation sender;                 // node 0 over the measured stretch
  std::vector<CardUtilisation> receivers; // nodes 1..receivers
  host::RunOutcome outcome = host::RunOutcome::finished;
  std::string detail;   // why the run failed, if it did
  bool stopped = false; // the stop flag ended it early
  double end_us = 0;
  std::vector<LinkFaultCount> faults; // what injected faults did (none without)
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const SaturationResult&) const = default;
};

// Sends outstanding per receiver's VI: enough that the card always has
// sends to work on, together at most what the doorbell queue takes at once.
std::uint32_t saturation_window(std::uint32_t receivers);

// Throws std::invalid_argument for a size outside 32..65536 bytes, no
// receivers, more than 64, or a zero duration.
SaturationResult run_saturation_point(const SaturationSpec& spec,
                                      const std::atomic<bool>* stop = nullptr);

} // namespace lanai::bench
