// Tests of the VBR frame sources: the frame-size trace reader on small
// fixture files, and the synthetic MPEG source's determinism, GOP structure,
// mean rate and clipping.
#include "bench/workloads/mpeg_source.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

using lanai::bench::MpegParams;
using lanai::bench::read_frame_trace;
using lanai::bench::synthetic_mpeg;

namespace {

const std::filesystem::path data_dir = BENCH_TEST_DATA_DIR;

// The message of the runtime_error reading `name` throws ("" if none).
std::string trace_error(const char* name) {
  try {
    read_frame_trace(data_dir / name);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Mean rate 240 kB/s at 24 frames/s: mean frame 10000 bytes. With the
// default weights the IBBPBBPBBPBB GOP weighs 20.5, so the type means are
// 10000 * 12 / 20.5 times 5, 2.5 and 1, far enough below the 64 KiB clip
// that clipping does not bias the moments.
MpegParams video() {
  MpegParams p;
  p.mean_bytes_per_s = 240000;
  return p;
}

double mean_of(const std::vector<std::uint32_t>& sizes, std::size_t begin, std::size_t stride) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = begin; i < sizes.size(); i += stride, ++n)
    sum += sizes[i];
  return sum / static_cast<double>(n);
}

} // namespace

TEST_CASE("a frame-size trace reads one size per line") {
  CHECK(read_frame_trace(data_dir / "good.trace") == std::vector<std::uint32_t>{1200, 340, 560});
}

TEST_CASE("comments, blank lines, surrounding blanks and CRLF are skipped") {
  CHECK(read_frame_trace(data_dir / "commented.trace") ==
        std::vector<std::uint32_t>{1200, 340, 560});
}

TEST_CASE("a bad line is reported with file name and line number") {
  const std::string what = trace_error("bad_line.trace");
  CHECK(what.find("bad_line.trace:4") != std::string::npos);
  CHECK(what.find("12x4") != std::string::npos);
}

TEST_CASE("a zero frame size is an error") {
  CHECK(trace_error("zero_size.trace").find("zero_size.trace:2") != std::string::npos);
}

TEST_CASE("a trace without sizes is an error") {
  CHECK(trace_error("empty.trace").find("empty.trace") != std::string::npos);
  CHECK(trace_error("comments_only.trace").find("comments_only.trace") != std::string::npos);
}

TEST_CASE("a missing trace file is an error naming it") {
  CHECK(trace_error("no_such.trace").find("no_such.trace") != std::string::npos);
}

TEST_CASE("the synthetic source is deterministic in its seed") {
  const auto a = synthetic_mpeg(video(), 500, 7);
  const auto b = synthetic_mpeg(video(), 500, 7);
  const auto c = synthetic_mpeg(video(), 500, 8);
  CHECK(a.size() == 500);
  CHECK(a == b);
  CHECK(a != c);
  // A shorter stream is a prefix of a longer one with the same seed.
  const auto prefix = synthetic_mpeg(video(), 100, 7);
  CHECK(std::equal(prefix.begin(), prefix.end(), a.begin()));
  CHECK(synthetic_mpeg(video(), 0, 7).empty());
}

TEST_CASE("frame sizes follow the GOP pattern") {
  const auto sizes = synthetic_mpeg(video(), 12 * 1000, 1);
  // IBBPBBPBBPBB: I at 0, P at 3, 6, 9, B elsewhere.
  const double type_scale = 10000.0 * 12 / 20.5;
  const double i_mean = mean_of(sizes, 0, 12);
  const double p_mean = (mean_of(sizes, 3, 12) + mean_of(sizes, 6, 12) + mean_of(sizes, 9, 12)) / 3;
  const double b_mean = (mean_of(sizes, 1, 12) + mean_of(sizes, 2, 12) + mean_of(sizes, 4, 12) +
                         mean_of(sizes, 11, 12)) /
                        4;
  CHECK(i_mean > p_mean);
  CHECK(p_mean > b_mean);
  CHECK(i_mean == doctest::Approx(5.0 * type_scale).epsilon(0.02));
  CHECK(p_mean == doctest::Approx(2.5 * type_scale).epsilon(0.03));
  CHECK(b_mean == doctest::Approx(1.0 * type_scale).epsilon(0.03));
}

TEST_CASE("the long-run mean rate matches the target") {
  MpegParams p = video();
  const auto sizes = synthetic_mpeg(p, 12 * 2000, 3);
  const double bytes_per_s = mean_of(sizes, 0, 1) * p.frame_rate;
  CHECK(bytes_per_s == doctest::Approx(p.mean_bytes_per_s).epsilon(0.02));

  // Same for another GOP and frame rate.
  p.gop = "IPPPPP";
  p.frame_rate = 30;
  p.mean_bytes_per_s = 1.5e6; // I frames average 100 kB here
  p.max_frame_bytes = 1u << 20;
  const auto other = synthetic_mpeg(p, 6 * 2000, 4);
  CHECK(mean_of(other, 0, 1) * p.frame_rate == doctest::Approx(1.5e6).epsilon(0.02));
}

TEST_CASE("without variation every frame is its type's mean") {
  MpegParams p;
  p.gop = "IPB";
  p.frame_rate = 10;
  p.mean_bytes_per_s = 70000; // mean frame 7000; weights 4, 2, 1 sum to 7
  p.i_weight = 4;
  p.p_weight = 2;
  p.b_weight = 1;
  p.i_cv = p.p_cv = p.b_cv = 0;
  CHECK(synthetic_mpeg(p, 6, 1) ==
        std::vector<std::uint32_t>{12000, 6000, 3000, 12000, 6000, 3000});
}

TEST_CASE("frames are clipped to [1, max_frame_bytes]") {
  MpegParams big = video();
  big.max_frame_bytes = 40000; // I frames average about 29300
  const auto sizes = synthetic_mpeg(big, 12 * 500, 5);
  CHECK(*std::max_element(sizes.begin(), sizes.end()) == 40000);

  MpegParams tiny = video();
  tiny.mean_bytes_per_s = 1; // a small fraction of a byte per frame
  const auto small = synthetic_mpeg(tiny, 1200, 5);
  CHECK(*std::min_element(small.begin(), small.end()) == 1);
}

TEST_CASE("bad parameters are refused") {
  MpegParams p = video();
  SUBCASE("empty GOP") { p.gop = ""; }
  SUBCASE("null GOP") { p.gop = nullptr; }
  SUBCASE("frame type other than I, P, B") { p.gop = "IBBX"; }
  SUBCASE("zero frame rate") { p.frame_rate = 0; }
  SUBCASE("zero mean rate") { p.mean_bytes_per_s = 0; }
  SUBCASE("negative weight") { p.b_weight = -1; }
  SUBCASE("negative cv") { p.p_cv = -0.1; }
  SUBCASE("zero clip") { p.max_frame_bytes = 0; }
  CHECK_THROWS_AS(synthetic_mpeg(p, 10, 1), std::invalid_argument);
}

TEST_CASE("pinned sizes: the source yields the same numbers everywhere") {
  // Built only from the kernel's portable arithmetic; if these change,
  // recorded VBR experiments stop being reproducible.
  const auto sizes = synthetic_mpeg(video(), 12, 2024);
  CHECK(sizes == std::vector<std::uint32_t>{24810, 4820, 5044, 11554, 4943, 7007, 12895, 3921, 7520,
                                            14067, 7814, 8876});
}
