// Frame sizes of variable-bit-rate video streams: read from a trace file
// (one frame size in bytes per line, as the public MPEG-1 traces are) or
// made by a synthetic MPEG-1-like generator, so that no download is needed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace lanai::bench {

// Reads a frame-size trace: one positive integer (bytes) per line; blank
// lines and lines starting with '#' are skipped. Throws std::runtime_error
// naming the file and line for anything else, or for an empty trace.
std::vector<std::uint32_t> read_frame_trace(const std::filesystem::path& file);
// The same for a trace's text; `source` names it in errors.
std::vector<std::uint32_t> parse_frame_trace(std::string_view trace, std::string_view source);

struct MpegParams {
  // Group of pictures, one letter per frame: I, P or B (e.g. "IBBPBBPBBPBB").
  const char* gop = "IBBPBBPBBPBB";
  double frame_rate = 24.0;    // frames per second
  double mean_bytes_per_s = 0; // the stream's mean rate; sizes are scaled to it
  // Relative mean sizes of I, P and B frames and their coefficient of
  // variation (frame sizes are lognormal around the type's mean).
  double i_weight = 5.0, p_weight = 2.5, b_weight = 1.0;
  double i_cv = 0.15, p_cv = 0.3, b_cv = 0.35;
  std::uint32_t max_frame_bytes = 65536; // frames are clipped to this
};

// `frames` frame sizes of one synthetic stream, deterministic in `seed`:
// sizes follow the GOP pattern with per-type lognormal sizes, scaled so the
// expected mean rate is `mean_bytes_per_s` at `frame_rate` (before
// rounding to whole bytes and clipping to [1, max_frame_bytes]). Built only
// from portable arithmetic, so a seed gives the same sizes on every
// platform. Throws std::invalid_argument for an empty or non-IPB GOP,
// non-positive rates or weights, negative CVs or a zero clip.
std::vector<std::uint32_t> synthetic_mpeg(const MpegParams& params, std::size_t frames,
                                          std::uint64_t seed);

} // namespace lanai::bench
