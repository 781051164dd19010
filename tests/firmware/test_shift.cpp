// The 64-bit shift helpers against the host's `<<` and `>>` for every count
// from 0 to 63, on edge values and random values.
#include <doctest/doctest.h>

#include <cstdint>

#include "lanai_rt.h"
#include "test_values.h"

using namespace lanai_test;

namespace {

void check_shifts(uint64_t v, int32_t count) {
  int64_t sv = static_cast<int64_t>(v);
  int64_t shl = static_cast<int64_t>(v << count);
  int64_t lshr = static_cast<int64_t>(v >> count);
  int64_t ashr = sv >> count; // arithmetic on every supported host compiler
  int64_t got_shl = rt_native___ashldi3(sv, count);
  int64_t got_lshr = rt_native___lshrdi3(sv, count);
  int64_t got_ashr = rt_native___ashrdi3(sv, count);
  if (got_shl != shl || got_lshr != lshr || got_ashr != ashr) {
    INFO("v=", v, " count=", count);
    CHECK(got_shl == shl);
    CHECK(got_lshr == lshr);
    CHECK(got_ashr == ashr);
  }
}

} // namespace

TEST_CASE("64-bit shifts match the host for every count") {
  for (uint64_t v : edge_values64())
    for (int32_t count = 0; count < 64; ++count)
      check_shifts(v, count);
  random_source rng(6);
  for (unsigned i = 0; i < kRandomPairs / 64u; ++i) {
    uint64_t v = rng.next();
    for (int32_t count = 0; count < 64; ++count)
      check_shifts(v, count);
  }
}

TEST_CASE("shift counts use only their low six bits") {
  // Undefined in C; the helpers behave like a 64-bit shifter would.
  CHECK(rt_native___ashldi3(1, 64) == 1);
  CHECK(rt_native___lshrdi3(INT64_MIN, 65) == INT64_C(0x4000000000000000));
  CHECK(rt_native___ashrdi3(INT64_MIN, 127) == -1);
}
