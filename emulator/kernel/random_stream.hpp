// Per-component random number streams. Each component draws from its own
// stream, seeded from the experiment's master seed and the component's name,
// so adding or removing one component never perturbs another's numbers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace lanai::kernel {

// Stable 64-bit FNV-1a hash; part of the seed derivation, so it must never
// change, or every recorded experiment would stop being reproducible.
std::uint64_t fnv1a_64(std::string_view text);

// xoshiro256** seeded through SplitMix64. Every distribution is written out
// here with plain IEEE arithmetic (the standard library's distributions and
// transcendental functions differ between implementations), so a stream
// yields the same bits on every platform and compiler.
class RandomStream {
public:
  RandomStream(std::uint64_t master_seed, std::string_view component_name);

  const std::string& name() const { return name_; }
  // The seed derived from master seed and name, for logging.
  std::uint64_t seed() const { return seed_; }

  std::uint64_t next_u64();

  // Uniform over the closed range [lo, hi]; throws std::invalid_argument if
  // lo > hi. Unbiased (rejection sampling on a 64-bit product).
  std::uint32_t uniform_u32(std::uint32_t lo, std::uint32_t hi);

  // Uniform over [0, 1) with 53 random bits.
  double uniform_double();

  // True with probability p (clamped to [0, 1]).
  bool bernoulli(double p);

  // Exponentially distributed with the given mean (> 0).
  double exponential(double mean);

  // Normally distributed (Marsaglia's polar method); sd >= 0. Values come
  // in pairs, so the second of each pair is kept for the next call.
  double normal(double mean, double sd);

private:
  std::string name_;
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> state_;
  double spare_normal_ = 0.0;
  bool has_spare_normal_ = false;
};

// Natural logarithm from +, -, *, / only, so it rounds identically
// everywhere; accurate to a few ulp. Requires x > 0 and finite.
double portable_log(double x);

} // namespace lanai::kernel
