/* Division helpers: clang calls these for `/` and `%` on integers of every
 * width, the LANai having no divider. Everything runs on 32-bit words; the
 * unsigned 32-bit core, and what division by zero yields, are in
 * int_parts.h. */
#include "int_parts.h"
#include "lanai_rt.h"

/* --- 32-bit operands ----------------------------------------------------- */

/* |v| as unsigned; INT32_MIN maps to 2^31 without signed overflow. */
static uint32_t abs32(int32_t v) { return v < 0 ? 0u - (uint32_t)v : (uint32_t)v; }

/* Applies a sign to an unsigned magnitude, wrapping the way the hardware
 * would (INT32_MIN / -1 gives INT32_MIN rather than trapping). */
static int32_t with_sign32(uint32_t magnitude, int negative) {
  return (int32_t)(negative ? 0u - magnitude : magnitude);
}

uint32_t LANAI_RT_NAME(__udivsi3)(uint32_t n, uint32_t d) {
  uint32_t rem;
  return rt_udivmod32(n, d, &rem);
}

uint32_t LANAI_RT_NAME(__umodsi3)(uint32_t n, uint32_t d) {
  uint32_t rem;
  rt_udivmod32(n, d, &rem);
  return rem;
}

/* C truncates towards zero: the quotient is negative when exactly one
 * operand is, and the remainder takes the sign of the dividend. */
int32_t LANAI_RT_NAME(__divsi3)(int32_t n, int32_t d) {
  uint32_t rem;
  uint32_t q = rt_udivmod32(abs32(n), abs32(d), &rem);
  return with_sign32(q, (n < 0) != (d < 0));
}

int32_t LANAI_RT_NAME(__modsi3)(int32_t n, int32_t d) {
  uint32_t rem;
  rt_udivmod32(abs32(n), abs32(d), &rem);
  return with_sign32(rem, n < 0);
}

/* --- 64-bit operands ----------------------------------------------------- */

static int parts_less(struct rt_u64_parts a, struct rt_u64_parts b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

static struct rt_u64_parts parts_sub(struct rt_u64_parts a, struct rt_u64_parts b) {
  struct rt_u64_parts r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo);
  return r;
}

/* Unsigned quotient and remainder. Values that fit in one word take the
 * cheaper 32-bit path; otherwise normalised shift-and-subtract, at most 64
 * steps and usually far fewer. */
static struct rt_u64_parts udivmod64(struct rt_u64_parts n, struct rt_u64_parts d,
                                     struct rt_u64_parts* rem) {
  struct rt_u64_parts q = {0u, 0u};
  if (d.hi == 0u && d.lo == 0u) {
    *rem = n;
    q.hi = 0xFFFFFFFFu;
    q.lo = 0xFFFFFFFFu;
    return q;
  }
  if (parts_less(n, d)) {
    *rem = n;
    return q;
  }
  if (n.hi == 0u) { /* then d.hi == 0 too, since d <= n */
    rem->hi = 0u;
    q.lo = rt_udivmod32(n.lo, d.lo, &rem->lo);
    return q;
  }
  uint32_t shift = rt_clz64(d) - rt_clz64(n);
  d = rt_shl64(d, shift);
  for (uint32_t i = 0u; i <= shift; ++i) {
    q.hi = (q.hi << 1) | (q.lo >> 31);
    q.lo <<= 1;
    if (!parts_less(n, d)) {
      n = parts_sub(n, d);
      q.lo |= 1u;
    }
    d.lo = (d.lo >> 1) | (d.hi << 31);
    d.hi >>= 1;
  }
  *rem = n;
  return q;
}

/* |v| of a signed value as a word pair; INT64_MIN maps to 2^63. */
static struct rt_u64_parts abs64(int64_t v) {
  struct rt_u64_parts p = rt_split((uint64_t)v);
  return (p.hi >> 31) != 0u ? rt_negate(p) : p;
}

/* Joins a magnitude back into a signed value, negated if asked; wraps the
 * way the hardware would (INT64_MIN / -1 gives INT64_MIN). */
static int64_t with_sign64(struct rt_u64_parts magnitude, int negative) {
  struct rt_u64_parts v = negative ? rt_negate(magnitude) : magnitude;
  return (int64_t)rt_join(v.hi, v.lo);
}

uint64_t LANAI_RT_NAME(__udivmoddi4)(uint64_t n, uint64_t d, uint64_t* rem) {
  struct rt_u64_parts r;
  struct rt_u64_parts q = udivmod64(rt_split(n), rt_split(d), &r);
  if (rem)
    *rem = rt_join(r.hi, r.lo);
  return rt_join(q.hi, q.lo);
}

uint64_t LANAI_RT_NAME(__udivdi3)(uint64_t n, uint64_t d) {
  struct rt_u64_parts r;
  struct rt_u64_parts q = udivmod64(rt_split(n), rt_split(d), &r);
  return rt_join(q.hi, q.lo);
}

uint64_t LANAI_RT_NAME(__umoddi3)(uint64_t n, uint64_t d) {
  struct rt_u64_parts r;
  udivmod64(rt_split(n), rt_split(d), &r);
  return rt_join(r.hi, r.lo);
}

/* Truncating division: the quotient is negative when exactly one operand
 * is, the remainder takes the sign of the dividend. */
int64_t LANAI_RT_NAME(__divdi3)(int64_t n, int64_t d) {
  struct rt_u64_parts r;
  struct rt_u64_parts q = udivmod64(abs64(n), abs64(d), &r);
  return with_sign64(q, (n < 0) != (d < 0));
}

int64_t LANAI_RT_NAME(__moddi3)(int64_t n, int64_t d) {
  struct rt_u64_parts r;
  udivmod64(abs64(n), abs64(d), &r);
  return with_sign64(r, n < 0);
}
