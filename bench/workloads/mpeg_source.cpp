// Video frame sizes for VBR channels: a reader for public frame-size traces
// and a synthetic MPEG-1-like source (per-type lognormal sizes following a
// GOP pattern) whose numbers are the same on every platform.
#include "bench/workloads/mpeg_source.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "emulator/kernel/random_stream.hpp"
#include "emulator/text/text_file.hpp"

namespace lanai::bench {
namespace {

std::string_view trim(std::string_view s) {
  constexpr std::string_view space = " \t\r\n\f\v";
  const auto first = s.find_first_not_of(space);
  if (first == std::string_view::npos)
    return {};
  const auto last = s.find_last_not_of(space);
  return s.substr(first, last - first + 1);
}

// 1/k! for k = 0..13, folded at compile time: the Taylor series below needs
// fourteen terms for |r| <= ln(2)/2 to be accurate to below half an ulp.
constexpr std::array<double, 14> inverse_factorials = [] {
  std::array<double, 14> c{};
  c[0] = 1.0;
  for (std::size_t k = 1; k < c.size(); ++k)
    c[k] = c[k - 1] / static_cast<double>(k);
  return c;
}();

// e^x from +, -, *, / and an exact power-of-two scaling, the counterpart of
// kernel::portable_log: std::exp differs in the last bit between libms, and
// a one-ulp difference can move a frame size across a rounding boundary.
double portable_exp(double x) {
  // The callers only need frame-sized results; clamping keeps ldexp's
  // argument far from overflow and underflow.
  if (x > 700.0)
    x = 700.0;
  if (x < -700.0)
    x = -700.0;
  constexpr double inv_ln2 = 1.44269504088896338700e+00;
  constexpr double ln2_hi = 6.93147180369123816490e-01; // k * ln2_hi is exact
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double k = std::floor(x * inv_ln2 + 0.5);
  const double r = (x - k * ln2_hi) - k * ln2_lo;
  double p = inverse_factorials.back();
  for (std::size_t i = inverse_factorials.size() - 1; i-- > 0;)
    p = p * r + inverse_factorials[i];
  return std::ldexp(p, static_cast<int>(k));
}

struct FrameType {
  double mu = 0;    // mean of the underlying normal
  double sigma = 0; // its standard deviation
};

// Lognormal with the given mean and coefficient of variation:
// sigma^2 = ln(1 + cv^2), mu = ln(mean) - sigma^2 / 2.
FrameType lognormal_for(double mean, double cv) {
  const double sigma2 = kernel::portable_log(1.0 + cv * cv);
  return {kernel::portable_log(mean) - sigma2 / 2.0, std::sqrt(sigma2)};
}

void check_params(const MpegParams& p) {
  if (p.gop == nullptr || p.gop[0] == '\0')
    throw std::invalid_argument("synthetic_mpeg: the GOP pattern is empty");
  for (const char* c = p.gop; *c != '\0'; ++c)
    if (*c != 'I' && *c != 'P' && *c != 'B')
      throw std::invalid_argument(std::string("synthetic_mpeg: GOP pattern '") + p.gop +
                                  "' has a frame type other than I, P and B");
  const auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  if (!positive(p.frame_rate) || !positive(p.mean_bytes_per_s))
    throw std::invalid_argument("synthetic_mpeg: frame rate and mean rate must be positive");
  if (!positive(p.i_weight) || !positive(p.p_weight) || !positive(p.b_weight))
    throw std::invalid_argument("synthetic_mpeg: frame type weights must be positive");
  const auto cv_ok = [](double v) { return v >= 0 && std::isfinite(v); };
  if (!cv_ok(p.i_cv) || !cv_ok(p.p_cv) || !cv_ok(p.b_cv))
    throw std::invalid_argument("synthetic_mpeg: coefficients of variation must be >= 0");
  if (p.max_frame_bytes == 0)
    throw std::invalid_argument("synthetic_mpeg: max_frame_bytes must be at least 1");
}

} // namespace

std::vector<std::uint32_t> read_frame_trace(const std::filesystem::path& file) {
  return parse_frame_trace(
      text::text_of_file<std::runtime_error>(file, "cannot open frame-size trace"), file.string());
}

std::vector<std::uint32_t> parse_frame_trace(std::string_view trace, std::string_view source) {
  const std::string file(source);
  std::istringstream in{std::string(trace)};
  std::vector<std::uint32_t> sizes;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#')
      continue;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value == 0 ||
        value > std::numeric_limits<std::uint32_t>::max())
      throw std::runtime_error(file + ":" + std::to_string(number) +
                               ": expected a positive frame size in bytes, got '" +
                               std::string(text) + "'");
    sizes.push_back(static_cast<std::uint32_t>(value));
  }
  if (sizes.empty())
    throw std::runtime_error(file + ": the trace holds no frame sizes");
  return sizes;
}

std::vector<std::uint32_t> synthetic_mpeg(const MpegParams& params, std::size_t frames,
                                          std::uint64_t seed) {
  check_params(params);
  const std::size_t gop_length = std::strlen(params.gop);

  // Scale the weights so that one GOP's expected bytes are gop_length mean
  // frames: the type means average to mean_bytes_per_s / frame_rate.
  double weight_sum = 0;
  for (std::size_t i = 0; i < gop_length; ++i)
    weight_sum += params.gop[i] == 'I'   ? params.i_weight
                  : params.gop[i] == 'P' ? params.p_weight
                                         : params.b_weight;
  const double mean_frame = params.mean_bytes_per_s / params.frame_rate;
  const double scale = mean_frame * static_cast<double>(gop_length) / weight_sum;
  const FrameType i_type = lognormal_for(scale * params.i_weight, params.i_cv);
  const FrameType p_type = lognormal_for(scale * params.p_weight, params.p_cv);
  const FrameType b_type = lognormal_for(scale * params.b_weight, params.b_cv);

  kernel::RandomStream rng(seed, "mpeg_source");
  const double max_bytes = params.max_frame_bytes;
  std::vector<std::uint32_t> sizes;
  sizes.reserve(frames);
  for (std::size_t f = 0; f < frames; ++f) {
    const char kind = params.gop[f % gop_length];
    const FrameType& t = kind == 'I' ? i_type : kind == 'P' ? p_type : b_type;
    const double bytes = std::floor(portable_exp(rng.normal(t.mu, t.sigma)) + 0.5);
    const double clipped = bytes < 1.0 ? 1.0 : bytes > max_bytes ? max_bytes : bytes;
    sizes.push_back(static_cast<std::uint32_t>(clipped));
  }
  return sizes;
}

} // namespace lanai::bench
