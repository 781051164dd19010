/* Compute-heavy firmware for the simulator speed benchmark: CRC32, a sort,
 * 64-bit multiply/divide (runtime helpers), a prime sieve and a small
 * integer matrix multiply. No I/O: main returns a checksum of all results.
 * The same source is also compiled natively (main renamed) as the baseline,
 * so it uses only fixed-width types and never depends on byte order. */
#include <stdint.h>

/* Rounds of each kernel; the host may overwrite it before the run (the
 * quick smoke test uses 1). In .data, not .bss, and not const, so neither
 * compiler can fold the work away. */
uint32_t bench_scale = 100u;

/* Working sets, sized to fit the default 2 MiB SRAM well below the stack;
 * one round of the five kernels is about 3.9 M LANai instructions. */
#define CRC_BYTES 24576u
#define SORT_COUNT 2048u
#define SIEVE_LIMIT 16384u
#define MAT_N 16u
#define MULDIV_STEPS 300u

static uint8_t crc_buffer[CRC_BYTES];
static uint32_t crc_table[256];
static uint32_t sort_values[SORT_COUNT];
static uint8_t composite[SIEVE_LIMIT];
static int32_t mat_a[MAT_N][MAT_N], mat_b[MAT_N][MAT_N], mat_c[MAT_N][MAT_N];

/* xorshift32: cheap, deterministic and identical on both targets. */
static uint32_t next_random(uint32_t* state) {
  uint32_t x = *state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* Folds a word into the running checksum (FNV-1a over its four bytes,
 * taken by shifting so the result does not depend on memory byte order). */
static uint32_t mix(uint32_t h, uint32_t v) {
  for (uint32_t shift = 0u; shift < 32u; shift += 8u) {
    h ^= (v >> shift) & 0xFFu;
    h *= 16777619u;
  }
  return h;
}

static void crc_init(void) {
  for (uint32_t i = 0u; i < 256u; ++i) {
    uint32_t c = i;
    for (uint32_t k = 0u; k < 8u; ++k)
      c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

/* Table-driven CRC-32 (IEEE) of a freshly filled buffer. */
static uint32_t kernel_crc(uint32_t seed) {
  uint32_t state = seed | 1u;
  for (uint32_t i = 0u; i < CRC_BYTES; ++i)
    crc_buffer[i] = (uint8_t)next_random(&state);
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0u; i < CRC_BYTES; ++i)
    crc = crc_table[(crc ^ crc_buffer[i]) & 0xFFu] ^ (crc >> 8);
  return ~crc;
}

static void swap_values(uint32_t* a, uint32_t* b) {
  uint32_t t = *a;
  *a = *b;
  *b = t;
}

/* Quicksort with a median-of-three pivot; recurses into the smaller part
 * and loops on the larger, so the depth stays logarithmic (the firmware
 * stack is small). Short ranges finish with insertion sort. */
static void sort_range(uint32_t* v, int32_t lo, int32_t hi) {
  while (hi - lo > 16) {
    int32_t mid = lo + (hi - lo) / 2;
    if (v[mid] < v[lo])
      swap_values(&v[mid], &v[lo]);
    if (v[hi] < v[lo])
      swap_values(&v[hi], &v[lo]);
    if (v[hi] < v[mid])
      swap_values(&v[hi], &v[mid]);
    uint32_t pivot = v[mid];
    int32_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot)
        ++i;
      while (v[j] > pivot)
        --j;
      if (i <= j) {
        swap_values(&v[i], &v[j]);
        ++i;
        --j;
      }
    }
    if (j - lo < hi - i) {
      sort_range(v, lo, j);
      lo = i;
    } else {
      sort_range(v, i, hi);
      hi = j;
    }
  }
  for (int32_t i = lo + 1; i <= hi; ++i) {
    uint32_t x = v[i];
    int32_t j = i - 1;
    while (j >= lo && v[j] > x) {
      v[j + 1] = v[j];
      --j;
    }
    v[j + 1] = x;
  }
}

/* Sorts random values and hashes them in order; an unsorted neighbour
 * pair poisons the result so a wrong sort cannot go unnoticed. */
static uint32_t kernel_sort(uint32_t seed) {
  uint32_t state = seed ^ 0x9E3779B9u;
  for (uint32_t i = 0u; i < SORT_COUNT; ++i)
    sort_values[i] = next_random(&state);
  sort_range(sort_values, 0, (int32_t)SORT_COUNT - 1);
  uint32_t h = 2166136261u;
  for (uint32_t i = 0u; i < SORT_COUNT; ++i) {
    if (i > 0u && sort_values[i - 1u] > sort_values[i])
      h ^= 0xDEADBEEFu;
    h = (h ^ sort_values[i]) * 16777619u;
  }
  return h;
}

/* A 64-bit linear congruential walk with divisions and remainders by
 * changing divisors: every step calls the runtime's __muldi3, __udivdi3
 * and __umoddi3 on the LANai. */
static uint32_t kernel_muldiv(uint32_t seed) {
  uint64_t x = ((uint64_t)seed << 32) | (seed ^ 0x5bd1e995u);
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < MULDIV_STEPS; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t d = (x >> 29) | 3u; /* 35 significant bits, never zero */
    acc += x / d;
    acc ^= x % (d >> 7 | 1u);
  }
  return (uint32_t)acc ^ (uint32_t)(acc >> 32);
}

/* Sieve of Eratosthenes; returns a hash of the prime count and the sum of
 * the primes below a limit that shifts with the seed. */
static uint32_t kernel_sieve(uint32_t seed) {
  uint32_t limit = SIEVE_LIMIT - (seed & 1023u);
  for (uint32_t i = 0u; i < limit; ++i)
    composite[i] = 0u;
  uint32_t count = 0u, sum = 0u;
  for (uint32_t p = 2u; p < limit; ++p) {
    if (composite[p])
      continue;
    ++count;
    sum += p;
    if (p <= limit / p)
      for (uint32_t m = p * p; m < limit; m += p)
        composite[m] = 1u;
  }
  return mix(count, sum);
}

/* C = A x B on small integers (32-bit multiplies: __mulsi3 on the LANai),
 * hashed with a trace-like weighting. */
static uint32_t kernel_matrix(uint32_t seed) {
  uint32_t state = seed | 0x100u;
  for (uint32_t i = 0u; i < MAT_N; ++i)
    for (uint32_t j = 0u; j < MAT_N; ++j) {
      mat_a[i][j] = (int32_t)(next_random(&state) & 0xFFu) - 128;
      mat_b[i][j] = (int32_t)(next_random(&state) & 0xFFu) - 128;
    }
  for (uint32_t i = 0u; i < MAT_N; ++i)
    for (uint32_t j = 0u; j < MAT_N; ++j) {
      int32_t s = 0;
      for (uint32_t k = 0u; k < MAT_N; ++k)
        s += mat_a[i][k] * mat_b[k][j];
      mat_c[i][j] = s;
    }
  uint32_t h = 0u;
  for (uint32_t i = 0u; i < MAT_N; ++i)
    for (uint32_t j = 0u; j < MAT_N; ++j)
      h = mix(h, (uint32_t)mat_c[i][j] + i - j);
  return h;
}

int main(void) {
  crc_init();
  uint32_t checksum = 2166136261u;
  const uint32_t rounds = bench_scale;
  for (uint32_t round = 0u; round < rounds; ++round) {
    /* Each round's inputs depend on the checksum so far, so no round can
     * be hoisted, merged or skipped by either compiler. */
    const uint32_t seed = checksum ^ (round * 0x01000193u);
    checksum = mix(checksum, kernel_crc(seed));
    checksum = mix(checksum, kernel_sort(seed));
    checksum = mix(checksum, kernel_muldiv(seed));
    checksum = mix(checksum, kernel_sieve(seed));
    checksum = mix(checksum, kernel_matrix(seed));
  }
  return (int)checksum;
}
