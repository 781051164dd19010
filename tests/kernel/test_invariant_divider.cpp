// Tests of division by an invariant divisor: the multiply-and-shift
// quotient equals the hardware division's for every kind of divisor (one,
// powers of two, odd, the clocks' own, the largest) and every kind of
// dividend (zero, the multiples and their neighbours, the largest).
#include "emulator/kernel/invariant_divider.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using lanai::kernel::InvariantDivider;

static_assert(InvariantDivider(33).divide(66) == 2);
static_assert(InvariantDivider(1).divide(~std::uint64_t{0}) == ~std::uint64_t{0});

namespace {

constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();

std::vector<std::uint64_t> dividends_for(std::uint64_t d, std::mt19937_64& random) {
  std::vector<std::uint64_t> n = {0, 1, 2, top, top - 1, top / 2, top / 2 + 1};
  for (std::uint64_t k : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, top / d}) {
    if (k == 0 || k > top / d)
      continue;
    const std::uint64_t m = k * d; // a multiple and its neighbours
    n.push_back(m);
    n.push_back(m - 1);
    if (m < top)
      n.push_back(m + 1);
  }
  for (int i = 0; i < 2000; ++i) {
    n.push_back(random());
    n.push_back(random() >> (random() % 64));
  }
  return n;
}

void check_against_hardware(std::uint64_t d, std::mt19937_64& random) {
  const InvariantDivider divider(d);
  REQUIRE(divider.divisor() == d);
  for (std::uint64_t n : dividends_for(d, random)) {
    if (divider.divide(n) != n / d) {
      FAIL("divide(" << n << ") by " << d << " gave " << divider.divide(n) << ", not " << n / d);
    }
  }
}

} // namespace

TEST_CASE("the invariant divider's quotient is the hardware division's") {
  std::mt19937_64 random(20261129);
  std::vector<std::uint64_t> divisors = {1,
                                         2,
                                         3,
                                         5,
                                         7,
                                         33,      // 66 MHz: hz / gcd(hz, 1e12)
                                         500'000, // 66 MHz: 1e12 / gcd
                                         1'000'000'000'000,
                                         (std::uint64_t{1} << 32) - 1,
                                         std::uint64_t{1} << 32,
                                         (std::uint64_t{1} << 32) + 1,
                                         (std::uint64_t{1} << 63) - 1,
                                         std::uint64_t{1} << 63,
                                         (std::uint64_t{1} << 63) + 1,
                                         top - 1,
                                         top};
  for (unsigned k = 0; k < 64; ++k)
    divisors.push_back(std::uint64_t{1} << k);
  for (int i = 0; i < 300; ++i) {
    divisors.push_back(random() | 1);
    divisors.push_back((random() >> (random() % 64)) | 1);
  }
  for (std::uint64_t d : divisors)
    check_against_hardware(d, random);
}

TEST_CASE("an invariant divider of zero is refused") {
  CHECK_THROWS_AS(InvariantDivider(0), std::invalid_argument);
}
