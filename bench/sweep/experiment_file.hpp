// An experiment file: one TOML file that names a kind of experiment, the
// firmwares to compare, the hardware profile, the traffic and the sweep.
// Parsing validates everything up front, so a run never starts on a file
// that would fail half-way; each kind of experiment reads its own keys
// through a table of kinds.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/sweep/experiment_firmwares.hpp"
#include "emulator/text/table_reader.hpp"
#include "tools/analytic/qna_network.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "bench/queueing/twin_network.hpp"
#include "tools/analytic/pipeline_model.hpp"
#include "bench/workloads/pingpong.hpp"
#include "bench/workloads/stream_point.hpp"

namespace lanai::bench {

// A bad experiment file or option, and the checked reading of its tables
// (tools/toml).
using ExperimentError = text::InputError;
using text::parse_toml;
using text::TableReader;

// A QoS class of a jitter experiment: every channel of the class has the
// same negotiated rate and receiver.
struct TrafficClass {
  std::string name;
  Traffic traffic = Traffic::cbr; // cbr or vbr
  double rate_mbytes_per_s = 0;   // negotiated rate, MB = 10^6 bytes
  std::uint32_t receiver = 1;
  std::uint32_t message_bytes = 0;         // CBR: every message's size
  double frame_rate = 0;                   // VBR: frames (messages) per second
  std::string gop;                         // VBR without a trace: the synthetic GOP pattern
  std::filesystem::path trace;             // VBR: frame-size trace (absolute), empty: synthetic
  std::vector<std::uint32_t> trace_frames; // the trace's frame sizes
  // The negotiated inter-arrival time I, in picoseconds.
  double interval_ps() const;
};

struct BestEffortChannel {
  double rate_mbytes_per_s = 0; // mean rate; gaps are exponential
  std::uint32_t message_bytes = 0;
  std::uint32_t receiver = 1;
};

// How the load rises: QoS channels are added one at a time, cycling
// through `add_order` (class indices). Exactly one of: a point after every
// added channel until the total load first exceeds
// `max_total_mbytes_per_s`; one point per entry of `channels` (total QoS
// channels at that point); one point per entry of `totals_mbytes_per_s`,
// filled in the cycling order with every channel that still fits under it.
struct LoadSweep {
  std::vector<std::size_t> add_order;
  std::optional<double> max_total_mbytes_per_s;
  std::vector<std::uint32_t> channels;
  std::vector<double> totals_mbytes_per_s;
};

// The reliability levels an experiment's VIs may have (the key
// `reliability`): VIP_SERVICE_UNRELIABLE ("unreliable", the default: the
// published firmwares had no acknowledgements or retransmission, and an
// unreliable VI's messages cost the firmwares what theirs did),
// VIP_SERVICE_RELIABLE_DELIVERY ("delivery") or
// VIP_SERVICE_RELIABLE_RECEPTION ("reception").
inline constexpr std::uint32_t kUnreliable = 1;
inline constexpr std::uint32_t kReliableDelivery = 2;
inline constexpr std::uint32_t kReliableReception = 4;
// The key's value for a level.
inline const char* reliability_name(std::uint32_t level) {
  return level == kReliableReception  ? "reception"
         : level == kReliableDelivery ? "delivery"
                                      : "unreliable";
}

struct JitterSetup {
  std::uint32_t receivers = 1;             // nodes 1..receivers receive, node 0 sends
  std::uint32_t reliability = kUnreliable; // every channel's VIs
  std::vector<TrafficClass> classes;
  std::optional<BestEffortChannel> best_effort;
  LoadSweep load;
};

// The queueing twin: a QNA model file's network run on the emulated card
// with the reference firmware, per discipline of the LANai and doorbell
// rate; each point measures until the stopping queue's 95% interval is
// within target_ci_percent of its mean, or for duration_ms at most.
struct QueueingSetup {
  std::filesystem::path model_file; // absolute
  models::QnaNetwork model;
  TwinServices services;
  TwinTransfers transfers;
  std::vector<std::string> variants; // "cyclic", "pooled"
  std::vector<double> rates_per_us;
  double min_duration_ms = 200;
  std::size_t batches = 20;
  double target_ci_percent = 5;
};

// A stage of the pipeline an experiment stands for, as published.
struct ReferenceStage {
  std::string name;
  models::PipelineStage stage;
};

// Fragmentation by the host programs, as a messaging layer over the VIA
// does it: each packet cut into k (nearly) equal fragments sent as messages
// of their own, with host work per fragment on both sides. Emulated
// latency per k, next to the pipeline model of the reference stages and of
// the emulated path's own stages (measured by the direct method on whole
// messages of fit_sizes).
struct PipelineSetup {
  std::vector<std::uint32_t> packets;   // bytes
  std::vector<std::uint32_t> fragments; // the counts k tried, ascending
  std::uint32_t iterations = 3;         // timed round trips per point
  HostCopy send_copy, recv_copy;
  std::vector<ReferenceStage> reference; // sender first
  std::vector<std::uint32_t> fit_sizes;  // default: default_fit_sizes(largest packet)
};

// One sender sending equal messages back to back to 1..4 receivers: the
// throughput the card carries, next to the bound its profile sets, and how
// busy each engine is; per firmware, message size and number of receivers.
struct SaturationSetup {
  std::vector<std::uint32_t> sizes;        // message bytes, ascending
  std::vector<std::uint32_t> receivers;    // receiver counts, ascending
  std::uint32_t reliability = kUnreliable; // the VIs'
  // Each point again at each of these per-packet drop probabilities on
  // every link (the profile's [faults] drop_probability), ascending; empty:
  // the profile's own, and no drop_probability column.
  std::vector<double> drop_probabilities;
};

struct Experiment {
  std::filesystem::path file; // as given
  std::string name;           // default: the file's stem
  std::string description;
  std::string kind; // a name in experiment_kinds()
  std::vector<ExperimentFirmware> firmwares;
  std::string profile_source; // as written in the file; empty: built-in default
  profile::HardwareProfile profile;
  std::uint64_t seed = 1;
  double warmup_ms = 2.0;
  double duration_ms = 30.0;
  JitterSetup jitter;         // kind "jitter"
  QueueingSetup queueing;     // kind "queueing"
  PipelineSetup pipeline;     // kind "pipeline"
  SaturationSetup saturation; // kind "saturation"
};

struct ParseOptions {
  // Shipped firmware names accepted; empty: those loader::firmware_names()
  // finds, each then linked to check it (folders named by path always are).
  std::vector<std::string> known_firmwares;
};

// One kind of experiment: its name, a line saying what it measures, and
// the reader of its own keys (the common keys are read before it runs;
// relative paths are relative to `base_dir`).
struct ExperimentKind {
  std::string_view name;
  std::string_view description;
  void (*read)(const TableReader& top, const std::filesystem::path& base_dir,
               Experiment& experiment);
  // The kind's keys at the top level, besides the common ones.
  std::vector<std::string_view> top_level_keys;
};

const std::vector<ExperimentKind>& experiment_kinds();

// Parses and validates an experiment; relative paths inside it (profile,
// traces) are relative to `base_dir`. Throws ExperimentError.
Experiment parse_experiment(std::string_view text, const std::filesystem::path& source,
                            const std::filesystem::path& base_dir,
                            const ParseOptions& options = {});
Experiment load_experiment(const std::filesystem::path& file, const ParseOptions& options = {});

} // namespace lanai::bench
