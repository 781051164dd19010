// Running a saturation experiment: every (firmware, message size, number of
// receivers) point on the sweep runner, each one emulator run measuring the
// throughput the receivers see, beside the bound the hardware profile sets
// for that firmware (pipelined firmwares: the busier of the host DMA and
// the network; SVIA, which does one after the other: their sum).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/sweep/experiment_file.hpp"
#include "bench/sweep/sweep_runner.hpp"
#include "emulator/host/firmware_profiler.hpp"
#include "emulator/trace/trace_recorder.hpp"
#include "bench/workloads/saturation_point.hpp"

namespace lanai::bench {

struct SaturationRecord {
  std::size_t index = 0;
  std::size_t firmware = 0;
  std::uint32_t message_bytes = 0;
  std::uint32_t receivers = 0;
  double bound_mbytes_per_s = 0;
  double drop_probability = 0; // on every link, this point's
  std::string outcome;         // "finished", or why the point failed
  std::string detail;
  SaturationResult result;
  bool ok() const { return outcome == "finished"; }
  // The busiest receiver's host DMA.
  double receiver_hdma_busy() const;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const SaturationRecord&) const = default;
};

struct SaturationSweep {
  Experiment experiment;
  // Firmware-major, then size, then receivers, then drop probability.
  std::vector<std::optional<SaturationRecord>> records;
  bool interrupted = false;
  std::size_t failed() const;
  std::size_t kept() const;
};

// True if the firmware works through a message's steps one after another
// (its bound is the serial one): SVIA and its variants, whose engine is the
// part called svia. `firmware` is what loader::find_firmware takes.
bool sequential_firmware(const std::string& firmware);

struct SaturationRunOptions : SweepOptions {
  trace::Recorder* trace = nullptr;           // records point `trace_point` if set
  host::FirmwareProfiler* profiler = nullptr; // profiles point `trace_point` if set
  std::size_t trace_point = 0;
  // Under MPI, rank 0 is handed the points finished when it sees the stop,
  // as an interrupted sweep, before it waits for the running ones
  // (SweepOptions::on_stop_records): time to write them.
  std::function<void(const SaturationSweep&)> at_stop;
};

SaturationSweep run_saturation_experiment(const Experiment& experiment,
                                          const SaturationRunOptions& options);

// results.csv (firmware,message_bytes,receivers,throughput_MBps,bound_MBps,
// sender_lanai_busy,sender_hdma_busy,sender_nsdma_busy,receiver_hdma_busy,
// messages,lost,corrupted; with drop_probabilities also drop_probability
// after receivers and retransmissions_per_message at the end),
// summary.json, experiment.toml and profile.toml.
void write_saturation_files(const std::filesystem::path& dir, const SaturationSweep& sweep);
std::string saturation_table(const SaturationSweep& sweep);
// throughput.png: throughput against message size, one panel per number of
// receivers, one line per firmware with its bound drawn dashed. With drop
// probabilities, goodput.png: throughput against drop probability, one
// panel per message size, one line per firmware and number of receivers.
std::vector<std::filesystem::path> render_saturation_plots(const std::filesystem::path& dir,
                                                           const SaturationSweep& sweep,
                                                           std::string& warning);

} // namespace lanai::bench
