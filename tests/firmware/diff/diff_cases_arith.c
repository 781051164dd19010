/* Corpus: integer arithmetic the LANai does in software or in several
 * instructions: 64-bit add/sub carry chains, multiplication, signed and
 * unsigned division of both widths, and variable-count shifts. */
#include "diff_cases.h"
#include "diff_support.h"

uint64_t diff_add_sub_carry64(const uint64_t in[4]) {
  uint64_t a = in[0], b = in[1], c = in[2], d = in[3];
  uint64_t sum = a + b;
  uint64_t carry = sum < a; /* unsigned wraparound is well defined */
  uint64_t diff = c - d;
  uint64_t borrow = c < d;
  /* 128-bit add of (a:b) + (c:d) done by hand. */
  uint64_t lo = b + d;
  uint64_t hi = a + c + (lo < b);
  uint64_t acc = diff_mix(sum, diff);
  acc = diff_mix(acc, carry | (borrow << 1));
  acc = diff_mix(acc, lo);
  acc = diff_mix(acc, hi);
  /* Values straddling the 32-bit boundary exercise the word carry. */
  acc = diff_mix(acc, (a | 0xFFFFFFFFu) + 1u);
  acc = diff_mix(acc, (b & 0xFFFFFFFF00000000u) - 1u);
  return acc;
}

uint64_t diff_mul64_wrap(const uint64_t in[4]) {
  uint64_t a = in[0], b = in[1], c = in[2], d = in[3];
  uint64_t acc = a * b;
  acc = diff_mix(acc, c * d);
  acc = diff_mix(acc, a * 0x9E3779B97F4A7C15u);
  acc = diff_mix(acc, (b | 1u) * (c >> 32));
  acc = diff_mix(acc, (int64_t)a < 0 ? 0u - a * 3u : a * 5u);
  /* A small multiplier times a large one, and the reverse. */
  acc = diff_mix(acc, (d & 0xFFu) * a);
  acc = diff_mix(acc, a * (d & 0xFFu));
  return acc;
}

uint64_t diff_mul32_widening(const uint64_t in[4]) {
  uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1];
  int32_t sa = (int32_t)(uint32_t)(in[2] >> 7);
  int32_t sb = (int32_t)(uint32_t)in[3];
  uint64_t acc = (uint64_t)a * b;
  acc = diff_mix(acc, (uint64_t)((int64_t)sa * sb));
  acc = diff_mix(acc, a * b); /* 32-bit product, wrapped */
  acc = diff_mix(acc, (uint32_t)sa * (uint32_t)sb);
  acc = diff_mix(acc, (uint64_t)(uint32_t)(a * 10u + b * 3u));
  return acc;
}

uint64_t diff_udiv_umod64(const uint64_t in[4]) {
  uint64_t a = in[0], b = in[1] | 1u, c = in[2], d = in[3];
  uint64_t small = (d & 0xFFFFu) + 1u;
  uint64_t acc = a / b;
  acc = diff_mix(acc, a % b);
  acc = diff_mix(acc, c / small);
  acc = diff_mix(acc, c % small);
  acc = diff_mix(acc, (a >> (d & 31u)) / ((b >> 20) | 1u));
  /* Divisor larger than dividend: quotient 0, remainder the dividend. */
  acc = diff_mix(acc, (c >> 40) / (b | 0x8000000000000000u));
  acc = diff_mix(acc, (c >> 40) % (b | 0x8000000000000000u));
  /* Power-of-two divisor. */
  acc = diff_mix(acc, a / ((uint64_t)1 << (d & 63u)));
  return acc;
}

/* Signed division with the one overflowing pair (INT64_MIN / -1) steered
 * away and a zero divisor replaced. */
static int64_t safe_div64(int64_t n, int64_t d) {
  if (d == 0)
    d = 7;
  if (d == -1)
    return (int64_t)(0u - (uint64_t)n);
  return n / d;
}

static int64_t safe_mod64(int64_t n, int64_t d) {
  if (d == 0)
    d = -7;
  if (d == -1)
    return 0;
  return n % d;
}

uint64_t diff_sdiv_smod64(const uint64_t in[4]) {
  int64_t a = (int64_t)in[0], b = (int64_t)in[1], c = (int64_t)in[2];
  int64_t small = (int64_t)(in[3] & 0x3FFu) - 512;
  uint64_t acc = (uint64_t)safe_div64(a, b);
  acc = diff_mix(acc, (uint64_t)safe_mod64(a, b));
  acc = diff_mix(acc, (uint64_t)safe_div64(c, small));
  acc = diff_mix(acc, (uint64_t)safe_mod64(c, small));
  acc = diff_mix(acc, (uint64_t)safe_div64(b, c >> 33));
  acc = diff_mix(acc, (uint64_t)safe_mod64(INT64_MIN, small));
  acc = diff_mix(acc, (uint64_t)safe_div64(INT64_MIN, b));
  return acc;
}

uint64_t diff_udiv_umod32(const uint64_t in[4]) {
  uint32_t a = (uint32_t)in[0], b = (uint32_t)in[1] | 1u;
  uint32_t c = (uint32_t)(in[2] >> 32), d = (uint32_t)in[3];
  uint32_t small = (d & 0xFFu) + 1u;
  uint64_t acc = a / b;
  acc = diff_mix(acc, a % b);
  acc = diff_mix(acc, c / small);
  acc = diff_mix(acc, c % small);
  acc = diff_mix(acc, (c >> 16) / (b | 0x80000000u));
  acc = diff_mix(acc, a / (1u << (d & 31u)));
  return acc;
}

static int32_t safe_div32(int32_t n, int32_t d) {
  if (d == 0)
    d = 3;
  if (d == -1)
    return (int32_t)(0u - (uint32_t)n);
  return n / d;
}

static int32_t safe_mod32(int32_t n, int32_t d) {
  if (d == 0)
    d = -3;
  if (d == -1)
    return 0;
  return n % d;
}

uint64_t diff_sdiv_smod32(const uint64_t in[4]) {
  int32_t a = (int32_t)(uint32_t)in[0], b = (int32_t)(uint32_t)in[1];
  int32_t c = (int32_t)(uint32_t)(in[2] >> 32);
  int32_t small = (int32_t)(in[3] & 0xFFu) - 128;
  uint64_t acc = (uint32_t)safe_div32(a, b);
  acc = diff_mix(acc, (uint32_t)safe_mod32(a, b));
  acc = diff_mix(acc, (uint32_t)safe_div32(c, small));
  acc = diff_mix(acc, (uint32_t)safe_mod32(c, small));
  acc = diff_mix(acc, (uint32_t)safe_div32(INT32_MIN, small));
  acc = diff_mix(acc, (uint32_t)safe_mod32(INT32_MIN, b));
  /* Narrow types divide through int as well. */
  int16_t h = (int16_t)(uint16_t)in[3];
  int8_t q = (int8_t)(uint8_t)(in[2] | 1u);
  acc = diff_mix(acc, (uint32_t)(int32_t)(h / q));
  acc = diff_mix(acc, (uint32_t)(int32_t)(h % q));
  return acc;
}

uint64_t diff_div_by_constants(const uint64_t in[4]) {
  uint64_t a = in[0];
  int64_t sa = (int64_t)in[1];
  uint32_t b = (uint32_t)in[2];
  int32_t sb = (int32_t)(uint32_t)in[3];
  uint64_t acc = a / 10u;
  acc = diff_mix(acc, a % 10u);
  acc = diff_mix(acc, (uint64_t)(sa / 1000));
  acc = diff_mix(acc, (uint64_t)(sa % 1000));
  acc = diff_mix(acc, b / 7u);
  acc = diff_mix(acc, b % 7u);
  acc = diff_mix(acc, (uint32_t)(sb / -9));
  acc = diff_mix(acc, (uint32_t)(sb % 16));
  acc = diff_mix(acc, (uint64_t)(sa / 64));
  return acc;
}

uint64_t diff_shifts64_variable(const uint64_t in[4]) {
  uint64_t a = in[0], b = in[1];
  uint32_t s = (uint32_t)in[2] & 63u, t = (uint32_t)(in[2] >> 8) & 63u;
  uint64_t acc = a << s;
  acc = diff_mix(acc, a >> t);
  acc = diff_mix(acc, (uint64_t)((int64_t)b >> s)); /* arithmetic */
  acc = diff_mix(acc, b << t);
  /* Counts straddling the word boundary. */
  for (uint32_t k = 30u; k < 35u; ++k) {
    acc = diff_mix(acc, a << k);
    acc = diff_mix(acc, (uint64_t)((int64_t)in[3] >> k));
  }
  acc = diff_mix(acc, (uint64_t)((int64_t)(in[3] | 0x8000000000000000u) >> s));
  return acc;
}

uint64_t diff_shifts32_variable(const uint64_t in[4]) {
  uint32_t a = (uint32_t)in[0];
  int32_t b = (int32_t)(uint32_t)(in[1] >> 32);
  uint32_t s = (uint32_t)in[2] & 31u, t = (uint32_t)in[3] & 31u;
  uint64_t acc = a << s;
  acc = diff_mix(acc, a >> t);
  acc = diff_mix(acc, (uint32_t)(b >> s));
  acc = diff_mix(acc, (uint32_t)((int32_t)(a | 0x80000000u) >> t));
  acc = diff_mix(acc, (uint32_t)b << t);
  acc = diff_mix(acc, (uint16_t)((uint16_t)a >> (s & 15u)));
  return acc;
}

uint64_t diff_overflow_builtins(const uint64_t in[4]) {
  int64_t a = (int64_t)in[0], b = (int64_t)in[1];
  int64_t small = (int64_t)(in[2] & 0xFFFFu) - 0x8000;
  int64_t r = 0;
  uint64_t acc = __builtin_mul_overflow(a, b, &r);
  acc = diff_mix(acc, (uint64_t)r);
  acc = diff_mix(acc, __builtin_mul_overflow(a >> 33, small, &r));
  acc = diff_mix(acc, (uint64_t)r);
  acc = diff_mix(acc, __builtin_add_overflow(a, b, &r));
  acc = diff_mix(acc, (uint64_t)r);
  uint64_t u = 0;
  acc = diff_mix(acc, __builtin_mul_overflow(in[2], in[3], &u));
  acc = diff_mix(acc, u);
  int32_t w = 0;
  acc =
      diff_mix(acc, __builtin_mul_overflow((int32_t)(uint32_t)in[3], (int32_t)(uint32_t)in[0], &w));
  acc = diff_mix(acc, (uint32_t)w);
  return acc;
}

uint64_t diff_gcd_euclid(const uint64_t in[4]) {
  uint64_t a = in[0] | 1u, b = in[1] | 2u;
  while (b != 0u) { /* remainders shrink fast: ~90 steps at most */
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  uint32_t x = (uint32_t)in[2] | 1u, y = (uint32_t)in[3] | 4u;
  uint32_t steps = 0u;
  while (y != 0u) {
    uint32_t t = x % y;
    x = y;
    y = t;
    ++steps;
  }
  return diff_mix(diff_mix(a, x), steps);
}

/* 64-bit negate-and-offset: the borrow between the halves comes from an
 * unsigned compare of the low words, which clang-14's compare folding got
 * backwards (hence -disable-peephole in the firmware flags). */
uint64_t diff_negate_offset64(const uint64_t in[4]) {
  /* Unsigned, so wrapping is defined; the code is the same as for
   * `-(int64_t)x - 12345`. */
  const uint64_t a = 0u - in[0] - 12345u;
  const uint64_t b = 0u - in[1] - (in[2] & 0xFFFFu);
  const uint64_t c = (uint64_t)0xFFFFFFFFu - (in[3] & 0xFFFFFFFFu);
  return a ^ (b << 1) ^ (c * 3u);
}
