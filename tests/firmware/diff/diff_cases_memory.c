/* Corpus: data movement and narrow types: structs copied, passed and
 * returned by value, global arrays and structs updated in place, sign and
 * zero extension, 8/16-bit wraparound, sorting and the mem* functions. */
#include "diff_cases.h"
#include "diff_support.h"

/* Large enough that clang copies it with memcpy rather than inline. */
struct packet {
  uint32_t header[4];
  uint16_t length;
  signed char priority;
  unsigned char flags;
  uint64_t payload[6];
};

static struct packet make_packet(const uint64_t in[4]) {
  struct packet p;
  memset(&p, 0, sizeof p);
  for (uint32_t i = 0u; i < 4u; ++i)
    p.header[i] = (uint32_t)(in[i] >> 16);
  p.length = (uint16_t)in[1];
  p.priority = (signed char)(int32_t)((in[2] & 0xFFu) ^ 0x80u);
  p.flags = (unsigned char)(in[3] >> 56);
  for (uint32_t i = 0u; i < 6u; ++i)
    p.payload[i] = in[i & 3u] ^ ((uint64_t)i << 40);
  return p;
}

static uint64_t packet_digest(struct packet p) { /* by value on purpose */
  uint64_t acc = p.length;
  acc = diff_mix(acc, (uint64_t)(int64_t)p.priority);
  acc = diff_mix(acc, p.flags);
  for (uint32_t i = 0u; i < 4u; ++i)
    acc = diff_mix(acc, p.header[i]);
  for (uint32_t i = 0u; i < 6u; ++i)
    acc = diff_mix(acc, p.payload[i]);
  p.length = 0u; /* modifies the callee's copy only */
  return acc;
}

uint64_t diff_struct_by_value(const uint64_t in[4]) {
  struct packet a = make_packet(in);
  struct packet b = a; /* struct assignment */
  b.payload[5] += 1u;
  b.header[0] ^= 0xFFFFu;
  uint64_t acc = packet_digest(a);
  acc = diff_mix(acc, packet_digest(b));
  acc = diff_mix(acc, a.length); /* unchanged by packet_digest */
  struct packet arr[2];
  arr[1] = b;
  arr[0] = arr[1];
  return diff_mix(acc, arr[0].payload[5] - a.payload[5]);
}

/* Globals in .data and .bss. Each call restores them before returning so
 * every case stays a pure function of its input. */
static uint32_t g_table[8] = {3u, 1u, 4u, 1u, 5u, 9u, 2u, 6u};
static struct {
  uint64_t total;
  uint32_t hits[8];
  int16_t last;
} g_stats;

uint64_t diff_global_rmw(const uint64_t in[4]) {
  memset(&g_stats, 0, sizeof g_stats);
  uint32_t saved[8];
  memcpy(saved, g_table, sizeof saved);
  for (uint32_t i = 0u; i < 16u; ++i) {
    uint32_t slot = (uint32_t)(in[i & 3u] >> (i * 3u)) & 7u;
    g_table[slot] += (uint32_t)in[(i + 1u) & 3u];
    g_table[(slot + 1u) & 7u] ^= g_table[slot] >> 3;
    g_stats.hits[slot]++;
    g_stats.total += g_table[slot];
    g_stats.last = (int16_t)(uint16_t)g_table[slot];
  }
  uint64_t acc = g_stats.total;
  for (uint32_t i = 0u; i < 8u; ++i) {
    acc = diff_mix(acc, g_table[i]);
    acc = diff_mix(acc, g_stats.hits[i]);
  }
  acc = diff_mix(acc, (uint64_t)(int64_t)g_stats.last);
  memcpy(g_table, saved, sizeof saved);
  return acc;
}

uint64_t diff_sign_zero_extend(const uint64_t in[4]) {
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 8u; ++i) {
    uint64_t v = in[i & 3u] >> (i * 8u);
    signed char sc = (signed char)(int32_t)(v & 0xFFu);
    unsigned char uc = (unsigned char)v;
    int16_t ss = (int16_t)(uint16_t)v;
    uint16_t us = (uint16_t)v;
    acc = diff_mix(acc, (uint64_t)(int64_t)sc);
    acc = diff_mix(acc, (uint64_t)uc);
    acc = diff_mix(acc, (uint64_t)(int64_t)ss);
    acc = diff_mix(acc, (uint64_t)us);
    acc = diff_mix(acc, (uint32_t)(int32_t)sc + (uint32_t)uc);
  }
  /* Narrow values read back from arrays (byte and halfword loads). */
  signed char bytes[8];
  int16_t halves[4];
  for (uint32_t i = 0u; i < 8u; ++i)
    bytes[i] = (signed char)(int32_t)((in[1] >> (i * 8u)) & 0xFFu);
  for (uint32_t i = 0u; i < 4u; ++i)
    halves[i] = (int16_t)(uint16_t)(in[2] >> (i * 16u));
  int32_t sum = 0;
  for (uint32_t i = 0u; i < 8u; ++i)
    sum += bytes[i] + halves[i & 3u];
  return diff_mix(acc, (uint32_t)sum);
}

uint64_t diff_wrap8_16(const uint64_t in[4]) {
  uint8_t a = (uint8_t)in[0], b = (uint8_t)(in[0] >> 8);
  uint16_t c = (uint16_t)in[1], d = (uint16_t)(in[1] >> 16);
  uint8_t sum8 = (uint8_t)(a + b);
  uint8_t diff8 = (uint8_t)(a - b);
  uint8_t prod8 = (uint8_t)((uint32_t)a * b);
  uint16_t sum16 = (uint16_t)(c + d);
  uint16_t diff16 = (uint16_t)(c - d);
  uint16_t prod16 = (uint16_t)((uint32_t)c * d); /* no int overflow */
  int8_t s8 = (int8_t)(uint8_t)(in[2] & 0xFFu);
  int16_t s16 = (int16_t)(uint16_t)in[3];
  int8_t s8_inc = (int8_t)(uint8_t)((uint32_t)(uint8_t)s8 + 100u);
  int16_t s16_neg = (int16_t)(uint16_t)(0u - (uint32_t)(uint16_t)s16);
  uint64_t acc = ((uint64_t)sum8 << 56) | ((uint64_t)diff8 << 48) | ((uint64_t)prod8 << 40) |
                 ((uint64_t)sum16 << 24) | ((uint64_t)diff16 << 8) | (prod16 & 0xFFu);
  acc = diff_mix(acc, (uint64_t)(int64_t)s8_inc);
  acc = diff_mix(acc, (uint64_t)(int64_t)s16_neg);
  /* A uint8_t loop counter that wraps around. */
  uint8_t counter = (uint8_t)in[3];
  uint32_t laps = 0u;
  for (uint32_t i = 0u; i < 300u; ++i) {
    ++counter;
    laps += counter == 0u;
  }
  return diff_mix(acc, ((uint64_t)laps << 8) | counter);
}

uint64_t diff_insertion_sort(const uint64_t in[4]) {
  uint16_t v[20];
  for (uint32_t i = 0u; i < 20u; ++i)
    v[i] = (uint16_t)(in[i & 3u] >> ((i >> 2) * 11u));
  for (uint32_t i = 1u; i < 20u; ++i) {
    uint16_t key = v[i];
    uint32_t j = i;
    while (j > 0u && v[j - 1u] > key) {
      v[j] = v[j - 1u];
      --j;
    }
    v[j] = key;
  }
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 20u; ++i)
    acc = (acc << 3) ^ (acc >> 61) ^ v[i];
  return acc;
}

uint64_t diff_mem_functions(const uint64_t in[4]) {
  unsigned char buf[72];
  unsigned char other[72];
  uint32_t off = (uint32_t)in[0] & 7u;
  uint32_t len = (uint32_t)(in[0] >> 8) & 31u;
  memset(buf, (int)(in[1] & 0xFFu), sizeof buf);
  for (uint32_t i = 0u; i < 32u; ++i)
    other[i] = (unsigned char)(in[2 + (i >> 4)] >> ((i & 7u) * 8u)) ^ (unsigned char)i;
  memset(other + 32, 0x5A, 40);
  memcpy(buf + off, other + (off ^ 3u), len);
  memmove(buf + 3, buf + 1, 40); /* overlapping, forwards */
  memmove(buf + 1, buf + 5, 40); /* overlapping, backwards */
  int cmp = memcmp(buf, other, 40);
  uint64_t acc = (uint64_t)(cmp < 0 ? 1u : cmp > 0 ? 2u : 3u);
  for (uint32_t i = 0u; i < 72u; ++i)
    acc = diff_mix(acc, buf[i]);
  /* A string built in a local buffer. */
  signed char text[20];
  uint32_t n = (uint32_t)in[3] & 15u;
  for (uint32_t i = 0u; i < n; ++i)
    text[i] = (signed char)('a' + (int32_t)i);
  text[n] = 0;
  return diff_mix(acc, strlen((const char*)text));
}

uint64_t diff_matrix4_multiply(const uint64_t in[4]) {
  uint32_t a[4][4], b[4][4], c[4][4];
  for (uint32_t i = 0u; i < 4u; ++i) {
    for (uint32_t j = 0u; j < 4u; ++j) {
      a[i][j] = (uint32_t)(in[i] >> (j * 16u)) & 0xFFFFu;
      b[i][j] = (uint32_t)(in[j] >> (i * 8u)) & 0xFFu;
    }
  }
  for (uint32_t i = 0u; i < 4u; ++i) {
    for (uint32_t j = 0u; j < 4u; ++j) {
      uint32_t s = 0u;
      for (uint32_t k = 0u; k < 4u; ++k)
        s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  }
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 4u; ++i)
    for (uint32_t j = 0u; j < 4u; ++j)
      acc = diff_mix(acc, c[i][j]);
  return acc;
}

uint64_t diff_byte_buffer_walk(const uint64_t in[4]) {
  unsigned char buf[32];
  for (uint32_t i = 0u; i < 32u; ++i)
    buf[i] = (unsigned char)(in[i >> 3] >> ((i & 7u) * 8u));
  /* Pointer walks forwards and backwards, as a parser would. */
  const unsigned char* p = buf;
  const unsigned char* end = buf + 32;
  uint32_t run = 0u, best = 0u, sum = 0u;
  while (p != end) {
    sum += *p;
    run = (*p & 1u) ? run + 1u : 0u;
    best = run > best ? run : best;
    ++p;
  }
  uint32_t back = 0u;
  while (p != buf) {
    --p;
    back = (back << 1) ^ *p;
  }
  /* Halfword view assembled from bytes in big-endian order. */
  uint32_t halves = 0u;
  for (uint32_t i = 0u; i < 32u; i += 2u)
    halves += ((uint32_t)buf[i] << 8) | buf[i + 1u];
  return diff_mix(diff_mix(((uint64_t)best << 32) | sum, back), halves);
}
