// Per-component random number streams: seed derivation, the xoshiro256**
// generator and hand-written distributions with platform-independent output.
// Built with floating-point contraction off, so that no compiler fuses a
// multiply and an add into one differently-rounded instruction.
#include "emulator/kernel/random_stream.hpp"

#include <cmath>
#include <stdexcept>

namespace lanai::kernel {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t derive_seed(std::uint64_t master_seed, std::string_view name) {
  // Passing the master seed through SplitMix first means nearby master
  // seeds (1, 2, 3...) still give unrelated streams for the same name.
  std::uint64_t mixer = master_seed;
  return splitmix64(mixer) ^ fnv1a_64(name);
}

} // namespace

std::uint64_t fnv1a_64(std::string_view text) {
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001B3ULL;
  }
  return hash;
}

double portable_log(double x) {
  if (!(x > 0.0) || !std::isfinite(x))
    throw std::domain_error("lanai::kernel: portable_log needs a positive finite argument");

  // x = m * 2^e exactly; then move m into [sqrt(1/2), sqrt(2)) so the series
  // argument below stays small.
  int e = 0;
  double m = std::frexp(x, &e);
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }

  // log(m) = 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...), with |s| < 0.172;
  // eleven terms bring the truncation error below half an ulp.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  constexpr int terms = 11;
  double p = 1.0 / (2 * terms + 1);
  for (int k = terms - 1; k >= 0; --k)
    p = p * s2 + 1.0 / (2 * k + 1);
  const double log_m = 2.0 * s * p;

  // ln 2 split so that e * ln2_hi is exact for any double's exponent.
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  const double de = static_cast<double>(e);
  return de * ln2_hi + (log_m + de * ln2_lo);
}

RandomStream::RandomStream(std::uint64_t master_seed, std::string_view component_name)
    : name_(component_name), seed_(derive_seed(master_seed, component_name)) {
  std::uint64_t sm = seed_;
  for (auto& word : state_)
    word = splitmix64(sm);
}

std::uint64_t RandomStream::next_u64() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

std::uint32_t RandomStream::uniform_u32(std::uint32_t lo, std::uint32_t hi) {
  if (lo > hi)
    throw std::invalid_argument("lanai::kernel: uniform_u32 needs lo <= hi");
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - lo + 1;
  // The high half of the 64-bit output is the better-mixed half.
  std::uint64_t x = next_u64() >> 32;
  if (span == (1ULL << 32))
    return static_cast<std::uint32_t>(x);

  // Lemire's multiply-and-reject: the high word of x * span is uniform on
  // [0, span) once the few low words that would bias it are redrawn.
  const auto range = static_cast<std::uint32_t>(span);
  std::uint64_t product = x * range;
  auto low = static_cast<std::uint32_t>(product);
  if (low < range) {
    const std::uint32_t threshold = static_cast<std::uint32_t>(-range) % range;
    while (low < threshold) {
      x = next_u64() >> 32;
      product = x * range;
      low = static_cast<std::uint32_t>(product);
    }
  }
  return lo + static_cast<std::uint32_t>(product >> 32);
}

double RandomStream::uniform_double() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

bool RandomStream::bernoulli(double p) {
  // Always draws, so the stream's position never depends on p.
  return uniform_double() < p;
}

double RandomStream::exponential(double mean) {
  if (!(mean > 0.0) || !std::isfinite(mean))
    throw std::invalid_argument("lanai::kernel: exponential needs a positive finite mean");
  // 1 - u lies in (0, 1] and is exact, so the logarithm is always defined.
  return -mean * portable_log(1.0 - uniform_double());
}

double RandomStream::normal(double mean, double sd) {
  if (!(sd >= 0.0) || !std::isfinite(sd) || !std::isfinite(mean))
    throw std::invalid_argument("lanai::kernel: normal needs a finite mean and sd >= 0");
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return mean + sd * spare_normal_;
  }
  // The polar method needs only log and sqrt (sqrt is exactly rounded by
  // IEEE 754), unlike Box-Muller, whose sin and cos vary between libraries.
  double u = 0.0;
  double v = 0.0;
  double s = 0.0;
  do {
    u = 2.0 * uniform_double() - 1.0;
    v = 2.0 * uniform_double() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double factor = std::sqrt(-2.0 * portable_log(s) / s);
  spare_normal_ = v * factor;
  has_spare_normal_ = true;
  return mean + sd * (u * factor);
}

} // namespace lanai::kernel
