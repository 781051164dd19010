/* Corpus: bit manipulation, where the LANai has dedicated instructions
 * (leadz, trailz, popc) and where it has none (byte swaps, rotations, bit
 * reversal), plus the checksums and hashes firmware computes over packets. */
#include "diff_cases.h"
#include "diff_support.h"

uint64_t diff_popcount_parity(const uint64_t in[4]) {
  uint64_t acc = (uint64_t)__builtin_popcountll(in[0]);
  acc = diff_mix(acc, (uint64_t)__builtin_popcount((uint32_t)in[1]));
  acc = diff_mix(acc, (uint64_t)__builtin_parityll(in[2]));
  acc = diff_mix(acc, (uint64_t)__builtin_parity((uint32_t)(in[3] >> 16)));
  /* The same count by hand, clearing the lowest set bit each step. */
  uint64_t v = in[3];
  uint32_t n = 0u;
  while (v != 0u) {
    v &= v - 1u;
    ++n;
  }
  return diff_mix(acc, n);
}

/* clz/ctz are undefined for zero, so zero gets the width by hand. */
static uint32_t clz64_or_width(uint64_t v) { return v == 0u ? 64u : (uint32_t)__builtin_clzll(v); }

static uint32_t ctz32_or_width(uint32_t v) { return v == 0u ? 32u : (uint32_t)__builtin_ctz(v); }

uint64_t diff_clz_ctz(const uint64_t in[4]) {
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint64_t v = in[i] >> (in[(i + 1u) & 3u] & 63u);
    uint32_t w = (uint32_t)v;
    acc = diff_mix(acc, clz64_or_width(v));
    acc = diff_mix(acc, ctz32_or_width(w));
    acc = diff_mix(acc, w == 0u ? 32u : (uint32_t)__builtin_clz(w));
    acc = diff_mix(acc, v == 0u ? 64u : (uint32_t)__builtin_ctzll(v));
    acc = diff_mix(acc, (uint32_t)__builtin_ffsll((int64_t)v));
  }
  return acc;
}

static uint32_t reverse32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}

uint64_t diff_bit_reverse(const uint64_t in[4]) {
  uint64_t v = in[0];
  uint64_t r64 = ((uint64_t)reverse32((uint32_t)v) << 32) | reverse32((uint32_t)(v >> 32));
  /* A bit-serial loop as the reference for the mask version. */
  uint32_t w = (uint32_t)in[1], slow = 0u;
  for (uint32_t i = 0u; i < 32u; ++i) {
    slow = (slow << 1) | (w & 1u);
    w >>= 1;
  }
  uint64_t acc = diff_mix(r64, slow);
  acc = diff_mix(acc, reverse32((uint32_t)in[1]) ^ slow);
  return diff_mix(acc, reverse32((uint32_t)in[2]));
}

uint64_t diff_byte_swap(const uint64_t in[4]) {
  uint64_t acc = __builtin_bswap64(in[0]);
  acc = diff_mix(acc, __builtin_bswap32((uint32_t)in[1]));
  acc = diff_mix(acc, __builtin_bswap16((uint16_t)in[2]));
  /* Assembling a big-endian word from bytes, as a packet parser would. */
  uint32_t v = (uint32_t)in[3];
  uint32_t bytes[4] = {v & 0xFFu, (v >> 8) & 0xFFu, (v >> 16) & 0xFFu, v >> 24};
  uint32_t be = (bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3];
  return diff_mix(acc, be);
}

static uint32_t rotl32(uint32_t v, uint32_t n) {
  n &= 31u;
  return (v << n) | (v >> ((32u - n) & 31u));
}

static uint64_t rotr64(uint64_t v, uint32_t n) {
  n &= 63u;
  return (v >> n) | (v << ((64u - n) & 63u));
}

uint64_t diff_rotations(const uint64_t in[4]) {
  uint32_t n = (uint32_t)in[2];
  uint64_t acc = rotl32((uint32_t)in[0], n);
  acc = diff_mix(acc, rotr64(in[1], n >> 6));
  acc = diff_mix(acc, rotl32((uint32_t)(in[3] >> 32), 13u));
  acc = diff_mix(acc, rotr64(in[3], 29u));
  for (uint32_t i = 0u; i < 8u; ++i)
    acc = rotr64(acc, i * 7u) ^ rotl32((uint32_t)acc, i);
  return acc;
}

/* Reflected CRC-32 (IEEE 802.3 polynomial), bit at a time. */
static uint32_t crc32_update(uint32_t crc, uint32_t byte) {
  crc ^= byte;
  for (uint32_t k = 0u; k < 8u; ++k)
    crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  return crc;
}

uint64_t diff_crc32_bytes(const uint64_t in[4]) {
  /* Bytes come from the inputs by shifting, never by reinterpreting
   * memory, so the order is the same on either endianness. */
  unsigned char buf[32];
  for (uint32_t i = 0u; i < 32u; ++i)
    buf[i] = (unsigned char)(in[i >> 3] >> ((i & 7u) * 8u));
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0u; i < 32u; ++i)
    crc = crc32_update(crc, buf[i]);
  return ~crc;
}

uint64_t diff_fnv1a_murmur(const uint64_t in[4]) {
  uint32_t h32 = 2166136261u; /* FNV-1a over the 16 low bytes */
  for (uint32_t i = 0u; i < 16u; ++i) {
    h32 ^= (uint32_t)(in[i >> 2] >> ((i & 3u) * 8u)) & 0xFFu;
    h32 *= 16777619u;
  }
  uint64_t k = in[2] ^ in[3]; /* murmur3 64-bit finaliser */
  k ^= k >> 33;
  k *= 0xFF51AFD7ED558CCDu;
  k ^= k >> 33;
  k *= 0xC4CEB9FE1A85EC53u;
  k ^= k >> 33;
  return ((uint64_t)h32 << 32) ^ k;
}

uint64_t diff_bitfield_extract(const uint64_t in[4]) {
  uint32_t pos = (uint32_t)in[1] & 31u;
  uint32_t len = ((uint32_t)(in[1] >> 8) & 31u) + 1u;
  uint64_t mask = ((uint64_t)1 << len) - 1u;
  uint64_t field = (in[0] >> pos) & mask;
  /* Sign-extend the field by shifting it to the top and back. */
  uint64_t top = field << (64u - len);
  int64_t sfield = (int64_t)top >> (64u - len);
  /* Insert it elsewhere, as a header rewrite would. */
  uint64_t dst = in[2] & ~(mask << (pos >> 1));
  dst |= field << (pos >> 1);
  uint64_t acc = diff_mix(field, (uint64_t)sfield);
  acc = diff_mix(acc, dst);
  /* Lowest set bit isolate and clear. */
  acc = diff_mix(acc, in[3] & (0u - in[3]));
  return diff_mix(acc, in[3] & (in[3] - 1u));
}
