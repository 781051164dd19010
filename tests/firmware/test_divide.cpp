// The division helpers against the host's `/` and `%`, on all pairs of edge
// values and millions of random pairs. Pairs that are undefined in C (zero
// divisor, MIN / -1) are checked separately against the documented results.
#include <doctest/doctest.h>

#include <cstdint>

#include "lanai_rt.h"
#include "test_values.h"

using namespace lanai_test;

namespace {

void check_div32(uint32_t n, uint32_t d) {
  if (d == 0u)
    return;
  uint32_t uq = rt_native___udivsi3(n, d), ur = rt_native___umodsi3(n, d);
  if (uq != n / d || ur != n % d) {
    INFO("n=", n, " d=", d);
    CHECK(uq == n / d);
    CHECK(ur == n % d);
  }
  int32_t sn = static_cast<int32_t>(n), sd = static_cast<int32_t>(d);
  if (sn == INT32_MIN && sd == -1)
    return;
  int32_t sq = rt_native___divsi3(sn, sd), sr = rt_native___modsi3(sn, sd);
  if (sq != sn / sd || sr != sn % sd) {
    INFO("n=", sn, " d=", sd);
    CHECK(sq == sn / sd);
    CHECK(sr == sn % sd);
  }
}

void check_div64(uint64_t n, uint64_t d) {
  if (d == 0u)
    return;
  uint64_t uq = rt_native___udivdi3(n, d), ur = rt_native___umoddi3(n, d);
  uint64_t rem = ~uint64_t{0};
  uint64_t uq4 = rt_native___udivmoddi4(n, d, &rem);
  if (uq != n / d || ur != n % d || uq4 != n / d || rem != n % d) {
    INFO("n=", n, " d=", d);
    CHECK(uq == n / d);
    CHECK(ur == n % d);
    CHECK(uq4 == n / d);
    CHECK(rem == n % d);
  }
  int64_t sn = static_cast<int64_t>(n), sd = static_cast<int64_t>(d);
  if (sn == INT64_MIN && sd == -1)
    return;
  int64_t sq = rt_native___divdi3(sn, sd), sr = rt_native___moddi3(sn, sd);
  if (sq != sn / sd || sr != sn % sd) {
    INFO("n=", sn, " d=", sd);
    CHECK(sq == sn / sd);
    CHECK(sr == sn % sd);
  }
}

} // namespace

TEST_CASE("32-bit division and remainder match the host") {
  auto edges = edge_values32();
  for (uint32_t n : edges)
    for (uint32_t d : edges)
      check_div32(n, d);
  random_source rng(4);
  for (unsigned i = 0; i < kRandomPairs; ++i)
    check_div32(rng.next32_any_width(), rng.next32_any_width());
  // Divisor larger than the dividend, and dividend a multiple of it.
  for (unsigned i = 0; i < 100000; ++i) {
    uint32_t d = rng.next32_any_width() | 1u;
    check_div32(d - 1u, d);
    check_div32(d * static_cast<uint32_t>(rng.next() % 1000u), d);
  }
}

TEST_CASE("64-bit division and remainder match the host") {
  auto edges = edge_values64();
  for (uint64_t n : edges)
    for (uint64_t d : edges)
      check_div64(n, d);
  random_source rng(5);
  for (unsigned i = 0; i < kRandomPairs; ++i)
    check_div64(rng.next_any_width(), rng.next_any_width());
  for (unsigned i = 0; i < 100000; ++i) {
    uint64_t d = rng.next_any_width() | 1u;
    check_div64(d - 1u, d);
    check_div64(d * (rng.next() % 100000u), d);
    check_div64(rng.next(), rng.next() >> 32); // divisor fits in a word
  }
}

TEST_CASE("signed division overflow wraps like two's complement") {
  CHECK(rt_native___divsi3(INT32_MIN, -1) == INT32_MIN);
  CHECK(rt_native___modsi3(INT32_MIN, -1) == 0);
  CHECK(rt_native___divdi3(INT64_MIN, -1) == INT64_MIN);
  CHECK(rt_native___moddi3(INT64_MIN, -1) == 0);
}

TEST_CASE("division by zero gives all-ones quotient and the dividend back") {
  CHECK(rt_native___udivsi3(1234u, 0u) == 0xFFFFFFFFu);
  CHECK(rt_native___umodsi3(1234u, 0u) == 1234u);
  CHECK(rt_native___udivdi3(0x123456789u, 0u) == ~uint64_t{0});
  CHECK(rt_native___umoddi3(0x123456789u, 0u) == 0x123456789u);
  uint64_t rem = 0;
  CHECK(rt_native___udivmoddi4(5u, 0u, &rem) == ~uint64_t{0});
  CHECK(rem == 5u);
  CHECK(rt_native___udivmoddi4(17u, 5u, nullptr) == 3u); // null rem allowed
  // Signed: the all-ones magnitude gets the quotient's sign.
  CHECK(rt_native___divsi3(7, 0) == -1);
  CHECK(rt_native___divsi3(-7, 0) == 1);
  CHECK(rt_native___modsi3(-7, 0) == -7);
  CHECK(rt_native___divdi3(-7, 0) == 1);
  CHECK(rt_native___moddi3(-7, 0) == -7);
}
