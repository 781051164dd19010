/* 64-bit shifts by a variable count: the LANai shifts only 32-bit words, so
 * clang calls these for `<<` and `>>` on 64-bit values whose count is not a
 * constant. Counts outside 0..63 are undefined in C; only the low six bits
 * are used here, matching what a wider machine's shifter would do. */
#include "int_parts.h"
#include "lanai_rt.h"

int64_t LANAI_RT_NAME(__ashldi3)(int64_t a, int32_t count) {
  struct rt_u64_parts r = rt_shl64(rt_split((uint64_t)a), (uint32_t)count & 63u);
  return (int64_t)rt_join(r.hi, r.lo);
}

int64_t LANAI_RT_NAME(__lshrdi3)(int64_t a, int32_t count) {
  struct rt_u64_parts r = rt_shr64(rt_split((uint64_t)a), (uint32_t)count & 63u, 0u);
  return (int64_t)rt_join(r.hi, r.lo);
}

int64_t LANAI_RT_NAME(__ashrdi3)(int64_t a, int32_t count) {
  struct rt_u64_parts v = rt_split((uint64_t)a);
  /* All-ones when negative: replicates the sign bit without a signed shift. */
  uint32_t fill = 0u - (v.hi >> 31);
  struct rt_u64_parts r = rt_shr64(v, (uint32_t)count & 63u, fill);
  return (int64_t)rt_join(r.hi, r.lo);
}
