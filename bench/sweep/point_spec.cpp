// Building the emulator run of one sweep point: channel list, VBR frame
// streams and the seeds of every random stream.
#include "bench/sweep/point_spec.hpp"

#include <cmath>

#include "bench/workloads/mpeg_source.hpp"

namespace lanai::bench {

std::uint64_t splitmix64(std::uint64_t value) {
  std::uint64_t z = value + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t derive_seed(std::uint64_t parent, std::uint64_t stream) {
  return splitmix64(parent ^ splitmix64(stream));
}

SweepPoint sweep_point(std::size_t index, std::size_t load_points) {
  return {index, index / load_points, index % load_points};
}

namespace {

// Frames a VBR channel sends: enough for the whole run, plus a margin for
// the frame in flight at the end.
std::size_t frames_needed(const Experiment& e, double frame_rate) {
  const double seconds = (e.warmup_ms + e.duration_ms) / 1e3;
  return static_cast<std::size_t>(std::ceil(seconds * frame_rate)) + 2;
}

std::vector<std::uint32_t> vbr_frames(const Experiment& e, std::size_t class_index,
                                      std::uint32_t channel) {
  const TrafficClass& c = e.jitter.classes[class_index];
  const std::size_t count = frames_needed(e, c.frame_rate);
  if (c.trace_frames.empty()) {
    MpegParams params;
    params.gop = c.gop.c_str();
    params.frame_rate = c.frame_rate;
    params.mean_bytes_per_s = c.rate_mbytes_per_s * 1e6;
    // The k-th channel of a class plays the same stream at every point.
    return synthetic_mpeg(params, count,
                          derive_seed(derive_seed(e.seed, 0x5642520000ull + class_index), channel));
  }
  // Channel k starts at the fractional part of k times the golden ratio
  // through the trace (and wraps): starts stay well spread however many
  // channels there are, and channel k plays the same frames at every point.
  const std::size_t n = c.trace_frames.size();
  const double golden = 0.6180339887498949;
  const double start = static_cast<double>(channel) * golden;
  const auto offset =
      static_cast<std::size_t>((start - std::floor(start)) * static_cast<double>(n));
  std::vector<std::uint32_t> frames(count);
  for (std::size_t i = 0; i < count; ++i)
    frames[i] = c.trace_frames[(offset + i) % n];
  return frames;
}

} // namespace

StreamPointSpec point_spec(const Experiment& e, const LoadPoint& load, const SweepPoint& point) {
  StreamPointSpec spec;
  spec.profile = e.profile;
  spec.firmware = e.firmwares.at(point.firmware).source;
  spec.receivers = e.jitter.receivers;
  spec.reliability = e.jitter.reliability;
  spec.seed = derive_seed(e.seed, point.load);
  // Milliseconds to picoseconds, rounded to whole nanoseconds.
  spec.warmup = kernel::nanoseconds(std::llround(e.warmup_ms * 1e6));
  spec.duration = kernel::nanoseconds(std::llround(e.duration_ms * 1e6));
  for (std::size_t ci = 0; ci < e.jitter.classes.size(); ++ci) {
    const TrafficClass& c = e.jitter.classes[ci];
    for (std::uint32_t k = 0; k < load.channels[ci]; ++k) {
      ChannelSpec ch;
      ch.class_name = c.name;
      ch.traffic = c.traffic;
      ch.rate_mbytes_per_s = c.rate_mbytes_per_s;
      ch.receiver = c.receiver;
      if (c.traffic == Traffic::cbr) {
        ch.message_bytes = c.message_bytes;
      } else {
        ch.frame_rate = c.frame_rate;
        ch.frames = vbr_frames(e, ci, k);
      }
      spec.channels.push_back(std::move(ch));
    }
  }
  if (const auto& be = e.jitter.best_effort) {
    ChannelSpec ch;
    ch.class_name = "BE";
    ch.traffic = Traffic::best_effort;
    ch.rate_mbytes_per_s = be->rate_mbytes_per_s;
    ch.message_bytes = be->message_bytes;
    ch.receiver = be->receiver;
    spec.channels.push_back(std::move(ch));
  }
  return spec;
}

} // namespace lanai::bench
