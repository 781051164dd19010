/* 32-bit building blocks for the integer helpers: 64-bit values split into
 * words, and word multiply, shift and divide routines written without any
 * operation that clang would itself lower to a helper call (a helper that
 * called a helper could end up calling itself). */
#ifndef LANAI_RT_INT_PARTS_H
#define LANAI_RT_INT_PARTS_H

#include <stdint.h>

/* A 64-bit value as two words; all helper arithmetic happens on these so
 * that no 64-bit multiply, divide or variable shift reaches the compiler. */
struct rt_u64_parts {
  uint32_t hi;
  uint32_t lo;
};

static inline struct rt_u64_parts rt_split(uint64_t v) {
  struct rt_u64_parts p;
  p.hi = (uint32_t)(v >> 32); /* constant shifts are plain word moves */
  p.lo = (uint32_t)v;
  return p;
}

static inline uint64_t rt_join(uint32_t hi, uint32_t lo) { return ((uint64_t)hi << 32) | lo; }

/* Two's-complement negation of a word pair, with the borrow done by hand. */
static inline struct rt_u64_parts rt_negate(struct rt_u64_parts v) {
  struct rt_u64_parts r;
  r.lo = 0u - v.lo;
  r.hi = 0u - v.hi - (v.lo != 0u);
  return r;
}

/* Leading zeros of a word; defined for zero (32), unlike __builtin_clz. */
static inline uint32_t rt_clz32(uint32_t v) { return v == 0u ? 32u : (uint32_t)__builtin_clz(v); }

/* Leading zeros of a word pair (64 for zero). */
static inline uint32_t rt_clz64(struct rt_u64_parts v) {
  return v.hi != 0u ? rt_clz32(v.hi) : 32u + rt_clz32(v.lo);
}

/* Low 32 bits of a*b by shift-and-add. The loop runs over the operand with
 * fewer significant bits, so small multipliers (the common case for index
 * arithmetic) cost only a few iterations. Each step masks instead of
 * branching so the loop body stays short on a machine with delay slots. */
static inline uint32_t rt_mul32(uint32_t a, uint32_t b) {
  if (a < b) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  uint32_t r = 0u;
  while (b != 0u) {
    r += a & (0u - (b & 1u));
    a <<= 1;
    b >>= 1;
  }
  return r;
}

/* Full 64-bit product of two words, accumulated in a word pair. */
static inline struct rt_u64_parts rt_mul32x32(uint32_t a, uint32_t b) {
  if (a < b) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  struct rt_u64_parts r = {0u, 0u};
  uint32_t a_hi = 0u; /* bits of a shifted out of the low word so far */
  uint32_t a_lo = a;
  while (b != 0u) {
    uint32_t mask = 0u - (b & 1u);
    uint32_t add_lo = a_lo & mask;
    uint32_t lo = r.lo + add_lo;
    r.hi += (a_hi & mask) + (lo < add_lo); /* carry out of the low word */
    r.lo = lo;
    a_hi = (a_hi << 1) | (a_lo >> 31);
    a_lo <<= 1;
    b >>= 1;
  }
  return r;
}

/* Word-pair shifts by a count in 0..63. A 32-bit shift by 32 or more is
 * undefined in C, hence the three cases. */
static inline struct rt_u64_parts rt_shl64(struct rt_u64_parts v, uint32_t count) {
  struct rt_u64_parts r;
  if (count >= 32u) {
    r.hi = v.lo << (count - 32u);
    r.lo = 0u;
  } else if (count == 0u) {
    r = v;
  } else {
    r.hi = (v.hi << count) | (v.lo >> (32u - count));
    r.lo = v.lo << count;
  }
  return r;
}

/* Logical right shift; `fill` is 0 or all-ones and supplies the bits that
 * enter from the top, which turns it into an arithmetic shift. */
static inline struct rt_u64_parts rt_shr64(struct rt_u64_parts v, uint32_t count, uint32_t fill) {
  struct rt_u64_parts r;
  if (count >= 32u) {
    uint32_t k = count - 32u;
    r.hi = fill;
    r.lo = k == 0u ? v.hi : (v.hi >> k) | (fill << (32u - k));
  } else if (count == 0u) {
    r = v;
  } else {
    r.hi = (v.hi >> count) | (fill << (32u - count));
    r.lo = (v.lo >> count) | (v.hi << (32u - count));
  }
  return r;
}

/* Unsigned 32-bit quotient and remainder by normalised shift-and-subtract:
 * the divisor is first aligned under the dividend's top bit, so the loop
 * runs only once per quotient bit that can be set. Division by zero is
 * undefined in C; here it yields an all-ones quotient and the dividend as
 * remainder, so faulty firmware at least fails reproducibly. */
static inline uint32_t rt_udivmod32(uint32_t n, uint32_t d, uint32_t* rem) {
  if (d == 0u) {
    *rem = n;
    return 0xFFFFFFFFu;
  }
  if (d > n) {
    *rem = n;
    return 0u;
  }
  uint32_t shift = rt_clz32(d) - rt_clz32(n);
  d <<= shift;
  uint32_t q = 0u;
  for (uint32_t i = 0u; i <= shift; ++i) {
    q <<= 1;
    if (n >= d) {
      n -= d;
      q |= 1u;
    }
    d >>= 1;
  }
  *rem = n;
  return q;
}

#endif
