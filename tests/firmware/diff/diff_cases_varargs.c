/* Corpus: variadic functions mixing 32- and 64-bit arguments, which checks
 * the stack alignment the start-up code establishes against the one the
 * compiler's va_arg assumes. clang-14 passes variadic 64-bit values in
 * 4-byte-aligned slots starting at 4[%sp] but va_arg rounds its cursor up
 * to 8, so a 64-bit variadic value is read correctly only when an odd
 * number of 32-bit values precede it; the calls below keep to that. */
#include <stdarg.h>

#include "diff_cases.h"

/* Each letter of `kinds` says how to read the next argument:
 * 'i' int32_t, 'u' uint32_t, 'l' int64_t, 'q' uint64_t. */
static uint64_t fold_args(const char* kinds, ...) {
  va_list ap;
  va_start(ap, kinds);
  uint64_t acc = 0x9E3779B97F4A7C15ull;
  for (const char* k = kinds; *k != '\0'; ++k) {
    uint64_t v;
    switch (*k) {
    case 'i':
      v = (uint64_t)(int64_t)va_arg(ap, int32_t);
      break;
    case 'u':
      v = va_arg(ap, uint32_t);
      break;
    case 'l':
      v = (uint64_t)va_arg(ap, int64_t);
      break;
    default:
      v = va_arg(ap, uint64_t);
      break;
    }
    acc = (acc ^ v) * 0x100000001B3ull + (acc >> 29);
  }
  va_end(ap);
  return acc;
}

uint64_t diff_varargs_mixed(const uint64_t in[4]) {
  const uint32_t a = (uint32_t)in[0];
  const int64_t b = (int64_t)in[1];
  const uint64_t c = in[2] ^ in[3];
  uint64_t r = fold_args("ilq", (int32_t)a, b, c);
  r ^= fold_args("iquil", (int32_t)(in[3] >> 7), c + 1u, (uint32_t)in[1], (int32_t)a,
                 (int64_t)(in[1] - 5u));
  r += fold_args("uqqqq", a, in[0], in[1], in[2], in[3]);
  r -= fold_args("iuiuiu", (int32_t)a, a * 3u, (int32_t)in[2], (uint32_t)in[3], 7, 9u);
  return r;
}
