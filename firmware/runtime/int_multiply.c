/* Multiplication helpers: the LANai has no multiplier, so clang turns every
 * 32- and 64-bit `*` (and the overflow-checking builtins) into calls to
 * these. All work is done by shift-and-add on 32-bit words. */
#include "int_parts.h"
#include "lanai_rt.h"

/* Wrapped 64-bit product of two word pairs; only the low 64 bits of the
 * full product survive, so the high*high partial product is never needed. */
static struct rt_u64_parts mul64_parts(struct rt_u64_parts a, struct rt_u64_parts b) {
  struct rt_u64_parts r = rt_mul32x32(a.lo, b.lo);
  r.hi += rt_mul32(a.lo, b.hi) + rt_mul32(a.hi, b.lo);
  return r;
}

int32_t LANAI_RT_NAME(__mulsi3)(int32_t a, int32_t b) {
  /* Unsigned arithmetic gives the same low word as signed and cannot
   * overflow in C terms. */
  return (int32_t)rt_mul32((uint32_t)a, (uint32_t)b);
}

int64_t LANAI_RT_NAME(__muldi3)(int64_t a, int64_t b) {
  struct rt_u64_parts r = mul64_parts(rt_split((uint64_t)a), rt_split((uint64_t)b));
  return (int64_t)rt_join(r.hi, r.lo);
}

/* Magnitude of a signed value as a word pair (INT64_MIN maps to 2^63). */
static struct rt_u64_parts magnitude(struct rt_u64_parts v) {
  return (v.hi >> 31) != 0u ? rt_negate(v) : v;
}

/* Whether the unsigned product of two magnitudes needs more than 64 bits;
 * if not, *product receives it. */
static int product_exceeds_64(struct rt_u64_parts a, struct rt_u64_parts b,
                              struct rt_u64_parts* product) {
  if (a.hi != 0u && b.hi != 0u)
    return 1;       /* both >= 2^32 */
  if (a.hi != 0u) { /* make a the factor that fits in one word */
    struct rt_u64_parts t = a;
    a = b;
    b = t;
  }
  struct rt_u64_parts low = rt_mul32x32(a.lo, b.lo);
  struct rt_u64_parts high = rt_mul32x32(a.lo, b.hi); /* weighs 2^32 */
  if (high.hi != 0u)
    return 1;
  uint32_t hi = low.hi + high.lo;
  if (hi < high.lo)
    return 1; /* carry into bit 64 */
  product->hi = hi;
  product->lo = low.lo;
  return 0;
}

/* Signed 64-bit multiply reporting overflow, used by
 * __builtin_mul_overflow on int64_t. Returns the wrapped product. */
int64_t LANAI_RT_NAME(__mulodi4)(int64_t a, int64_t b, int32_t* overflow) {
  struct rt_u64_parts pa = rt_split((uint64_t)a);
  struct rt_u64_parts pb = rt_split((uint64_t)b);
  struct rt_u64_parts wrapped = mul64_parts(pa, pb);

  uint32_t negative = (pa.hi ^ pb.hi) >> 31;
  struct rt_u64_parts m = {0u, 0u};
  int over = product_exceeds_64(magnitude(pa), magnitude(pb), &m);
  if (!over) {
    if (m.hi == 0u && m.lo == 0u)
      over = 0; /* a zero factor: the sign of the other does not matter */
    else if (negative)
      over = m.hi > 0x80000000u || (m.hi == 0x80000000u && m.lo != 0u);
    else
      over = m.hi >= 0x80000000u;
  }
  *overflow = over;
  return (int64_t)rt_join(wrapped.hi, wrapped.lo);
}
