// The multiplication helpers against the host's own `*` and overflow
// builtins, on all pairs of edge values and millions of random pairs.
#include <doctest/doctest.h>

#include <cstdint>

#include "lanai_rt.h"
#include "test_values.h"

using namespace lanai_test;

namespace {

void check_mulsi3(uint32_t a, uint32_t b) {
  int32_t expected = static_cast<int32_t>(a * b); // unsigned: no overflow UB
  int32_t got = rt_native___mulsi3(static_cast<int32_t>(a), static_cast<int32_t>(b));
  if (got != expected) {
    INFO("a=", a, " b=", b);
    CHECK(got == expected);
  }
}

void check_muldi3(uint64_t a, uint64_t b) {
  int64_t expected = static_cast<int64_t>(a * b);
  int64_t got = rt_native___muldi3(static_cast<int64_t>(a), static_cast<int64_t>(b));
  if (got != expected) {
    INFO("a=", a, " b=", b);
    CHECK(got == expected);
  }
}

void check_mulodi4(uint64_t ua, uint64_t ub) {
  int64_t a = static_cast<int64_t>(ua), b = static_cast<int64_t>(ub);
  int64_t expected = 0;
  bool expected_overflow = __builtin_mul_overflow(a, b, &expected);
  int32_t overflow = -1;
  int64_t got = rt_native___mulodi4(a, b, &overflow);
  if (got != expected || overflow != static_cast<int32_t>(expected_overflow)) {
    INFO("a=", a, " b=", b, " overflow=", overflow);
    CHECK(got == expected);
    CHECK(overflow == static_cast<int32_t>(expected_overflow));
  }
}

} // namespace

TEST_CASE("__mulsi3 matches 32-bit multiplication") {
  auto edges = edge_values32();
  for (uint32_t a : edges)
    for (uint32_t b : edges)
      check_mulsi3(a, b);
  random_source rng(1);
  for (unsigned i = 0; i < kRandomPairs; ++i)
    check_mulsi3(rng.next32_any_width(), rng.next32_any_width());
}

TEST_CASE("__muldi3 matches 64-bit multiplication") {
  auto edges = edge_values64();
  for (uint64_t a : edges)
    for (uint64_t b : edges)
      check_muldi3(a, b);
  random_source rng(2);
  for (unsigned i = 0; i < kRandomPairs; ++i)
    check_muldi3(rng.next_any_width(), rng.next_any_width());
}

TEST_CASE("__mulodi4 matches the overflow-checking builtin") {
  auto edges = edge_values64();
  for (uint64_t a : edges)
    for (uint64_t b : edges)
      check_mulodi4(a, b);
  random_source rng(3);
  for (unsigned i = 0; i < kRandomPairs; ++i) {
    uint64_t a = rng.next_any_width(), b = rng.next_any_width();
    // Random signs too: narrow magnitudes are otherwise always positive.
    if (rng.next() & 1u)
      a = 0u - a;
    if (rng.next() & 1u)
      b = 0u - b;
    check_mulodi4(a, b);
  }
}

TEST_CASE("__mulodi4 reports overflow exactly at the signed limits") {
  int32_t overflow = -1;
  CHECK(rt_native___mulodi4(INT64_MIN, 1, &overflow) == INT64_MIN);
  CHECK(overflow == 0);
  CHECK(rt_native___mulodi4(INT64_MIN, -1, &overflow) == INT64_MIN);
  CHECK(overflow == 1);
  CHECK(rt_native___mulodi4(INT64_MIN, 0, &overflow) == 0);
  CHECK(overflow == 0);
  const int64_t two_pow_62 = INT64_C(1) << 62;
  CHECK(rt_native___mulodi4(two_pow_62, 2, &overflow) == INT64_MIN);
  CHECK(overflow == 1);
  CHECK(rt_native___mulodi4(-two_pow_62, 2, &overflow) == INT64_MIN);
  CHECK(overflow == 0);
  // floor(sqrt(2^63 - 1)) squared fits; one more does not.
  const int64_t root = INT64_C(3037000499);
  CHECK(rt_native___mulodi4(root, root, &overflow) == INT64_C(9223372030926249001));
  CHECK(overflow == 0);
  rt_native___mulodi4(root + 1, root + 1, &overflow);
  CHECK(overflow == 1);
}
