// One point of the queueing twin: the reference firmware on one card with
// the model's service times, Poisson doorbells at one rate from a host
// program, and the queues measured by batch means until the stopping
// station's mean queue is known to the asked precision (or the longest
// allowed stretch has been measured).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "emulator/kernel/sim_time.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "bench/queueing/queue_meter.hpp"
#include "bench/queueing/twin_network.hpp"

namespace lanai::bench {

struct TwinPointSpec {
  profile::HardwareProfile profile; // the base profile; the twin's DMA timings are derived
  std::string firmware = "nic-send-twin";
  TwinServices services;
  TwinTransfers transfers;
  bool pooled = false;    // one pooled LANai queue instead of cyclic polling
  double rate_per_us = 0; // Poisson doorbells per microsecond
  std::uint64_t seed = 1;
  kernel::SimTime warmup{};       // run before measuring
  kernel::SimTime min_duration{}; // measured at least this long
  kernel::SimTime max_duration{}; // and at most this long
  std::size_t batches = 20;
  double target_precision = 0.05;  // stop once ci95 / mean of the stopping queue is <= this
  std::uint64_t max_doorbells = 0; // stop once this many are rung, if not before (0: no limit)
};

enum class TwinStatus : std::uint8_t { ok, failed, stopped };

struct TwinPointResult {
  TwinStatus status = TwinStatus::ok;
  std::string detail; // why it failed
  std::vector<StationEstimate> stations;
  std::array<ServiceTally, 6> services{}; // per TWIN_VISIT_*
  double measured_ms = 0;                 // virtual time measured (after the warm-up)
  double precision = 0;                   // ci95 / mean of the stopping queue reached
  bool precision_met = false;
  std::uint64_t messages = 0; // doorbells rung, the warm-up's included
  double virtual_seconds = 0; // virtual time run, the warm-up's included
  double wall_seconds = 0;
  bool fast_forward = true;         // idle loops were fast-forwarded
  std::uint64_t skipped_cycles = 0; // LANai cycles fast-forward did not execute
  // What the run cost the emulator on any host: the LANai instructions it
  // executed (not those fast-forward skipped), the kernel's events and
  // task runs, and the slices the core ran in.
  std::uint64_t executed_instructions = 0;
  std::uint64_t kernel_events = 0;
  std::uint64_t core_slices = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const TwinPointResult&) const = default;
};

// Cells per batch grow with the run: the measured stretch is cut into
// `batches` batches of whole cells of min_duration / batches.
TwinPointResult run_twin_point(const TwinPointSpec& spec, const std::atomic<bool>* stop = nullptr);

} // namespace lanai::bench
