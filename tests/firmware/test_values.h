// Inputs for the native runtime tests: a deterministic generator (so a
// failure reproduces) and the edge values where helper bugs hide: zero,
// one, minus one, the extreme signed values and the powers of two.
#ifndef LANAI_TEST_VALUES_H
#define LANAI_TEST_VALUES_H

#include <cstdint>
#include <vector>

namespace lanai_test {

// splitmix64: fast, and good enough to cover the input space.
class random_source {
public:
  explicit random_source(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }

  // Uniform bits are almost never small; mixing in random widths covers
  // short operands (small divisors, long quotients) as often as long ones.
  uint64_t next_any_width() {
    uint64_t v = next();
    unsigned width = static_cast<unsigned>(next() % 65u);
    return width == 64u ? v : v & ((uint64_t{1} << width) - 1u);
  }

  uint32_t next32_any_width() {
    uint32_t v = static_cast<uint32_t>(next());
    unsigned width = static_cast<unsigned>(next() % 33u);
    return width == 32u ? v : v & ((uint32_t{1} << width) - 1u);
  }

private:
  uint64_t state_;
};

// 64-bit edge values, including every power of two and its neighbours.
inline std::vector<uint64_t> edge_values64() {
  std::vector<uint64_t> v = {0u,
                             1u,
                             2u,
                             3u,
                             7u,
                             10u,
                             0xFFFFFFFFu,
                             0x100000000u,
                             0x7FFFFFFFFFFFFFFFu,
                             0x8000000000000000u,
                             0xFFFFFFFFFFFFFFFFu,
                             0xFFFFFFFFFFFFFFFEu,
                             0x80000000u,
                             0x7FFFFFFFu,
                             0xFFFFFFFF80000000u,
                             0x123456789ABCDEF0u};
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t p = uint64_t{1} << i;
    v.push_back(p);
    v.push_back(p - 1u);
    v.push_back(p + 1u);
    v.push_back(0u - p);
  }
  return v;
}

// 32-bit edge values, likewise.
inline std::vector<uint32_t> edge_values32() {
  std::vector<uint32_t> v = {0u,          1u,          2u,          3u,          7u,
                             10u,         0xFFFFFFFFu, 0xFFFFFFFEu, 0x7FFFFFFFu, 0x80000000u,
                             0x80000001u, 0x12345678u, 0xFFFFu,     0x10000u};
  for (unsigned i = 0; i < 32; ++i) {
    uint32_t p = uint32_t{1} << i;
    v.push_back(p);
    v.push_back(p - 1u);
    v.push_back(p + 1u);
    v.push_back(0u - p);
  }
  return v;
}

// How many random operand pairs each routine is checked on.
constexpr unsigned kRandomPairs = 2000000;

} // namespace lanai_test

#endif
