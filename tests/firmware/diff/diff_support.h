/* Shared by the C files of the corpus: the C library functions the cases
 * call (the firmware runtime provides them on the LANai, where there are no
 * libc headers) and a mixer that folds partial results into one word. */
#ifndef LANAI_DIFF_SUPPORT_H
#define LANAI_DIFF_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int memcmp(const void* a, const void* b, size_t n);
size_t strlen(const char* s);

/* Folds v into acc so that every bit of every partial result affects the
 * output. Rotate/xor/add only, to keep the check itself off the multiply
 * helpers whose correctness is under test elsewhere. */
static inline uint64_t diff_mix(uint64_t acc, uint64_t v) {
  acc ^= v;
  acc = (acc << 13) | (acc >> 51);
  return acc + 0x9E3779B97F4A7C15u;
}

#endif
