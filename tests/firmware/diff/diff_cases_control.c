/* Corpus: control flow: nested loops with early exits, recursion,
 * branch-free selects and every kind of comparison. Multi-way branches
 * (switches, function pointers) are in diff_cases_dispatch.c. */
#include "diff_cases.h"
#include "diff_support.h"

uint64_t diff_nested_loops(const uint64_t in[4]) {
  uint32_t rows = (uint32_t)(in[0] & 7u) + 3u;
  uint32_t cols = (uint32_t)(in[1] & 7u) + 3u;
  uint32_t stop = (uint32_t)in[2] & 63u;
  uint64_t acc = 0u;
  uint32_t visited = 0u;
  for (uint32_t r = 0u; r < rows; ++r) {
    for (uint32_t c = 0u; c < cols; ++c) {
      if (((r ^ c) & 3u) == 0u)
        continue;
      if (r * cols + c == stop)
        goto done; /* leave both loops at once */
      acc += (uint64_t)(r + 1u) << (c & 31u);
      ++visited;
      if (acc > in[3])
        break; /* only the inner loop */
    }
    acc ^= r;
  }
done:
  return diff_mix(acc, visited);
}

/* Ackermann: deep, irregular recursion with tiny arguments. */
static uint32_t ackermann(uint32_t m, uint32_t n) {
  if (m == 0u)
    return n + 1u;
  if (n == 0u)
    return ackermann(m - 1u, 1u);
  return ackermann(m - 1u, ackermann(m, n - 1u));
}

uint64_t diff_ackermann_small(const uint64_t in[4]) {
  uint32_t m = (uint32_t)in[0] & 3u;
  uint32_t n = (uint32_t)in[1] & (m == 3u ? 3u : 7u); /* A(3,3) = 61 */
  return ((uint64_t)ackermann(m, n) << 8) | ackermann((uint32_t)in[2] & 1u, 5u);
}

static uint64_t fib(uint32_t n) { return n < 2u ? n : fib(n - 1u) + fib(n - 2u); }

uint64_t diff_fib_recursive(const uint64_t in[4]) {
  return diff_mix(fib((uint32_t)in[0] & 15u), fib((uint32_t)in[1] & 7u));
}

static void quicksort(int32_t* v, int32_t lo, int32_t hi) {
  while (lo < hi) {
    int32_t pivot = v[lo + (hi - lo) / 2];
    int32_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot)
        ++i;
      while (v[j] > pivot)
        --j;
      if (i <= j) {
        int32_t t = v[i];
        v[i] = v[j];
        v[j] = t;
        ++i;
        --j;
      }
    }
    /* Recurse into the smaller half, loop on the larger one. */
    if (j - lo < hi - i) {
      quicksort(v, lo, j);
      lo = i;
    } else {
      quicksort(v, i, hi);
      hi = j;
    }
  }
}

uint64_t diff_quicksort_local(const uint64_t in[4]) {
  int32_t v[24];
  for (uint32_t i = 0u; i < 24u; ++i) {
    uint64_t word = in[i & 3u];
    /* Signed values from overlapping input bits, with duplicates. */
    v[i] = (int32_t)(uint32_t)(word >> (i * 5u % 40u)) >> (i & 7u);
  }
  quicksort(v, 0, 23);
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 24u; ++i)
    acc = diff_mix(acc, (uint32_t)v[i]);
  return acc;
}

uint64_t diff_conditional_selects(const uint64_t in[4]) {
  int32_t a = (int32_t)(uint32_t)in[0], b = (int32_t)(uint32_t)in[1];
  int64_t c = (int64_t)in[2];
  uint32_t u = (uint32_t)in[3];
  int32_t mn = a < b ? a : b;
  int32_t mx = a > b ? a : b;
  uint32_t abs_a = a < 0 ? 0u - (uint32_t)a : (uint32_t)a;
  int32_t clamped = b < -1000 ? -1000 : (b > 1000 ? 1000 : b);
  int64_t sgn = (c > 0) - (c < 0);
  uint32_t umin = u < 0x80000000u ? u : 0x80000000u;
  uint64_t acc = diff_mix((uint32_t)mn, (uint32_t)mx);
  acc = diff_mix(acc, abs_a);
  acc = diff_mix(acc, (uint32_t)clamped);
  acc = diff_mix(acc, (uint64_t)sgn);
  acc = diff_mix(acc, umin);
  acc = diff_mix(acc, (u & 1u) ? in[0] : in[1]);
  acc = diff_mix(acc, c >= 0 ? (uint64_t)c : 0u - (uint64_t)c);
  return acc;
}

uint64_t diff_compare_all(const uint64_t in[4]) {
  uint64_t bits = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint64_t x = in[i], y = in[(i + 1u) & 3u];
    if (i == 3u)
      y = x; /* include an equal pair */
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    uint32_t x32 = (uint32_t)x, y32 = (uint32_t)(y >> (i * 8u));
    int32_t sx32 = (int32_t)x32, sy32 = (int32_t)y32;
    uint32_t r = (uint32_t)(x < y) | (uint32_t)(x <= y) << 1 | (uint32_t)(x > y) << 2 |
                 (uint32_t)(x >= y) << 3 | (uint32_t)(x == y) << 4 | (uint32_t)(x != y) << 5 |
                 (uint32_t)(sx < sy) << 6 | (uint32_t)(sx <= sy) << 7 | (uint32_t)(sx > sy) << 8 |
                 (uint32_t)(sx >= sy) << 9 | (uint32_t)(x32 < y32) << 10 |
                 (uint32_t)(x32 >= y32) << 11 | (uint32_t)(sx32 < sy32) << 12 |
                 (uint32_t)(sx32 > sy32) << 13 | (uint32_t)(sx32 <= 0) << 14 |
                 (uint32_t)(sx < 0) << 15;
    bits = (bits << 16) | r;
  }
  return bits;
}

uint64_t diff_collatz_steps(const uint64_t in[4]) {
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint64_t n = (in[i] & 0xFFFFFu) | 1u;
    uint32_t steps = 0u;
    /* Bounded: stops at 1 or after 500 steps, whichever comes first. */
    while (n != 1u && steps < 500u) {
      n = (n & 1u) ? 3u * n + 1u : n >> 1;
      ++steps;
    }
    acc = diff_mix(acc, ((uint64_t)steps << 32) | (uint32_t)n);
  }
  return acc;
}
