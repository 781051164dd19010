/* Corpus: multi-way dispatch: switches compiled to compare trees and to
 * jump tables (clang-14 builds a table for the LANai only from about 100
 * cases on), and calls through tables of function pointers. */
#include "diff_cases.h"
#include "diff_support.h"

/* Sixteen contiguous cases: a jump table on most targets, a tree of
 * compares and conditional branches on the LANai. */
static uint32_t dense_step(uint32_t op, uint32_t x) {
  switch (op) {
  case 0:
    return x + 1u;
  case 1:
    return x ^ 0xA5A5A5A5u;
  case 2:
    return x << 3;
  case 3:
    return x >> 5;
  case 4:
    return ~x;
  case 5:
    return x - 0x1234u;
  case 6:
    return x | 0x80000001u;
  case 7:
    return x & 0x7FFFFFF0u;
  case 8:
    return (x << 16) | (x >> 16);
  case 9:
    return x + (x >> 1);
  case 10:
    return x ^ (x << 7);
  case 11:
    return x - (x >> 3);
  case 12:
    return x + 0x9E3779B9u;
  case 13:
    return (x & 0xFFFFu) + (x >> 16);
  case 14:
    return x ^ (x >> 11);
  default:
    return x + op;
  }
}

uint64_t diff_switch_dense(const uint64_t in[4]) {
  uint32_t x = (uint32_t)in[1];
  uint64_t ops = in[0];
  for (uint32_t i = 0u; i < 16u; ++i) {
    x = dense_step((uint32_t)(ops & 15u), x);
    ops >>= 4;
  }
  /* A second, larger table indexed by a byte of another input. */
  uint32_t y = 0u;
  switch ((uint32_t)in[2] & 31u) {
  case 0:
  case 1:
  case 2:
    y = 10u;
    break;
  case 3:
  case 4:
    y = 20u;
    break;
  case 5:
    y = 30u; /* falls through */
  case 6:
    y += 40u;
    break;
  case 7:
  case 8:
  case 9:
  case 10:
    y = 50u;
    break;
  case 11:
    y = 60u;
    break;
  case 12:
    y = 70u;
    break;
  case 13:
  case 14:
    y = 80u;
    break;
  case 15:
    y = 90u;
    break;
  case 16:
    y = 100u;
    break;
  case 17:
    y = 110u;
    break;
  case 18:
    y = 120u;
    break;
  case 19:
  case 20:
    y = 130u;
    break;
  case 21:
    y = 140u;
    break;
  default:
    y = 7u;
    break;
  }
  return diff_mix(x, y);
}

uint64_t diff_switch_sparse(const uint64_t in[4]) {
  uint64_t acc = 0u;
  for (uint32_t i = 0u; i < 4u; ++i) {
    uint32_t key = (uint32_t)(in[i] >> 20) & 0x3FFu;
    key = key < 512u ? key : (key & 7u) * 100u; /* hits the case labels */
    switch (key) {
    case 0:
      acc += 1u;
      break;
    case 100:
      acc ^= 0xFFu;
      break;
    case 200:
      acc <<= 1;
      break;
    case 300:
      acc += 301u;
      break;
    case 400:
      acc = ~acc;
      break;
    case 500:
      acc -= 17u;
      break;
    case 600:
      acc += in[i];
      break;
    case 700:
      acc ^= in[i] >> 3;
      break;
    default:
      acc += key;
      break;
    }
  }
  return acc;
}

/* Four different operations per group of labels, so that clang can
 * neither merge the cases nor turn the switch into a table of constants:
 * 128 cases reach a real jump table (an indexed load and a jump through a
 * register). */
#define DIFF_QUAD(n)                                                                               \
  case (n):                                                                                        \
    x += (uint32_t)(n)*0x01000193u;                                                                \
    break;                                                                                         \
  case (n) + 1:                                                                                    \
    x ^= x >> ((n) % 13 + 1);                                                                      \
    break;                                                                                         \
  case (n) + 2:                                                                                    \
    x = (x << ((n) % 7 + 1)) | (x >> (31 - (n) % 7));                                              \
    break;                                                                                         \
  case (n) + 3:                                                                                    \
    x -= (x >> 3) ^ (uint32_t)(n);                                                                 \
    break;
#define DIFF_QUAD4(n) DIFF_QUAD(n) DIFF_QUAD((n) + 4) DIFF_QUAD((n) + 8) DIFF_QUAD((n) + 12)

/* The case labels come from macros, which clang-format cannot lay out. */
/* clang-format off */
static uint32_t table_step(uint32_t op, uint32_t x) {
  switch (op) {
    DIFF_QUAD4(0) DIFF_QUAD4(16) DIFF_QUAD4(32) DIFF_QUAD4(48)
    DIFF_QUAD4(64) DIFF_QUAD4(80) DIFF_QUAD4(96) DIFF_QUAD4(112)
  default:
    x = ~x;
    break;
  }
  return x;
}
/* clang-format on */

uint64_t diff_switch_jump_table(const uint64_t in[4]) {
  uint32_t x = (uint32_t)in[0];
  uint64_t ops = in[1] ^ (in[2] << 7);
  for (uint32_t i = 0u; i < 9u; ++i) {
    x = table_step((uint32_t)(ops & 0xFFu) % 130u, x); /* 128, 129: default */
    ops = (ops >> 7) | (ops << 57);
  }
  uint32_t last = table_step((uint32_t)in[3] & 127u, (uint32_t)(in[3] >> 32));
  return diff_mix(x, last);
}

typedef uint64_t (*binary_op)(uint64_t, uint64_t);

static uint64_t op_add(uint64_t a, uint64_t b) { return a + b; }
static uint64_t op_xor(uint64_t a, uint64_t b) { return a ^ b; }
static uint64_t op_sub(uint64_t a, uint64_t b) { return a - b; }
static uint64_t op_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t op_rot(uint64_t a, uint64_t b) {
  uint32_t n = (uint32_t)b & 63u;
  return (a << n) | (a >> ((64u - n) & 63u));
}

static const binary_op op_table[5] = {op_add, op_xor, op_sub, op_max, op_rot};

uint64_t diff_function_table(const uint64_t in[4]) {
  uint64_t acc = in[0];
  uint64_t selector = in[1];
  for (uint32_t i = 0u; i < 12u; ++i) {
    binary_op op = op_table[(uint32_t)(selector & 7u) % 5u];
    acc = op(acc, in[2 + (i & 1u)]);
    selector >>= 3;
  }
  /* A pointer chosen at run time and called through a local variable. */
  binary_op pick = (in[3] & 1u) ? op_sub : op_add;
  return pick(acc, in[3]);
}
