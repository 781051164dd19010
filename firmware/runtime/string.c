/* The C memory and string functions firmware needs and clang emits calls to
 * (struct copies, array initialisers): memcpy, memmove, memset, memcmp and
 * strlen. Aligned data moves a word at a time; bytes handle the edges. */
#include <stdint.h>

#include "lanai_rt.h"

/* Word access to byte buffers; may_alias tells the compiler that these
 * loads and stores may touch objects of any type. */
typedef uint32_t __attribute__((may_alias)) rt_word;

/* Whether both addresses share the same offset within a word, the only
 * case in which word moves can be used without shifting. */
static inline int co_aligned(uintptr_t a, uintptr_t b) { return ((a ^ b) & 3u) == 0u; }

/* Copies upwards; safe for overlap when dst is below src. */
static inline void copy_forward(unsigned char* d, const unsigned char* s, size_t n) {
  if (n >= 8u && co_aligned((uintptr_t)d, (uintptr_t)s)) {
    while (((uintptr_t)d & 3u) != 0u) {
      *d++ = *s++;
      --n;
    }
    rt_word* dw = (rt_word*)d;
    const rt_word* sw = (const rt_word*)s;
    for (; n >= 16u; n -= 16u, dw += 4, sw += 4) {
      rt_word a = sw[0], b = sw[1], c = sw[2], e = sw[3];
      dw[0] = a;
      dw[1] = b;
      dw[2] = c;
      dw[3] = e;
    }
    for (; n >= 4u; n -= 4u)
      *dw++ = *sw++;
    d = (unsigned char*)dw;
    s = (const unsigned char*)sw;
  }
  for (; n != 0u; --n)
    *d++ = *s++;
}

/* Copies downwards from the ends; safe for overlap when dst is above src. */
static inline void copy_backward(unsigned char* d, const unsigned char* s, size_t n) {
  d += n;
  s += n;
  if (n >= 8u && co_aligned((uintptr_t)d, (uintptr_t)s)) {
    while (((uintptr_t)d & 3u) != 0u) {
      *--d = *--s;
      --n;
    }
    rt_word* dw = (rt_word*)d;
    const rt_word* sw = (const rt_word*)s;
    for (; n >= 4u; n -= 4u)
      *--dw = *--sw;
    d = (unsigned char*)dw;
    s = (const unsigned char*)sw;
  }
  for (; n != 0u; --n)
    *--d = *--s;
}

void* LANAI_RT_NAME(memcpy)(void* dst, const void* src, size_t n) {
  copy_forward((unsigned char*)dst, (const unsigned char*)src, n);
  return dst;
}

void* LANAI_RT_NAME(memmove)(void* dst, const void* src, size_t n) {
  uintptr_t d = (uintptr_t)dst;
  uintptr_t s = (uintptr_t)src;
  /* Compared as integers: the buffers may be unrelated objects. A forward
   * copy is safe unless dst starts inside [src, src + n). */
  if (d - s >= n)
    copy_forward((unsigned char*)dst, (const unsigned char*)src, n);
  else
    copy_backward((unsigned char*)dst, (const unsigned char*)src, n);
  return dst;
}

void* LANAI_RT_NAME(memset)(void* dst, int c, size_t n) {
  unsigned char* d = (unsigned char*)dst;
  unsigned char byte = (unsigned char)c;
  if (n >= 8u) {
    while (((uintptr_t)d & 3u) != 0u) {
      *d++ = byte;
      --n;
    }
    /* Replicate the byte by shifts: a multiply would be a helper call. */
    uint32_t w = byte;
    w |= w << 8;
    w |= w << 16;
    rt_word* dw = (rt_word*)d;
    for (; n >= 16u; n -= 16u, dw += 4) {
      dw[0] = w;
      dw[1] = w;
      dw[2] = w;
      dw[3] = w;
    }
    for (; n >= 4u; n -= 4u)
      *dw++ = w;
    d = (unsigned char*)dw;
  }
  for (; n != 0u; --n)
    *d++ = byte;
  return dst;
}

int LANAI_RT_NAME(memcmp)(const void* a, const void* b, size_t n) {
  const unsigned char* p = (const unsigned char*)a;
  const unsigned char* q = (const unsigned char*)b;
  if (n >= 8u && co_aligned((uintptr_t)p, (uintptr_t)q)) {
    while (((uintptr_t)p & 3u) != 0u) {
      if (*p != *q)
        return (int)*p - (int)*q;
      ++p;
      ++q;
      --n;
    }
    /* Skip equal words; the first differing word is settled bytewise below
     * so the result does not depend on byte order. */
    const rt_word* pw = (const rt_word*)p;
    const rt_word* qw = (const rt_word*)q;
    for (; n >= 4u && *pw == *qw; n -= 4u) {
      ++pw;
      ++qw;
    }
    p = (const unsigned char*)pw;
    q = (const unsigned char*)qw;
  }
  for (; n != 0u; --n, ++p, ++q) {
    if (*p != *q)
      return (int)*p - (int)*q;
  }
  return 0;
}

/* Non-zero iff some byte of w is zero: subtracting 1 from each byte borrows
 * into its top bit only for a zero byte whose top bit was clear. */
static inline uint32_t has_zero_byte(uint32_t w) { return (w - 0x01010101u) & ~w & 0x80808080u; }

size_t LANAI_RT_NAME(strlen)(const char* s) {
  const unsigned char* p = (const unsigned char*)s;
  while (((uintptr_t)p & 3u) != 0u) {
    if (*p == 0u)
      return (size_t)(p - (const unsigned char*)s);
    ++p;
  }
  /* Aligned word reads never cross into another word, so reading past the
   * terminator stays within memory that holds the string's last word. */
  const rt_word* w = (const rt_word*)p;
  while (!has_zero_byte(*w))
    ++w;
  p = (const unsigned char*)w;
  while (*p != 0u)
    ++p;
  return (size_t)(p - (const unsigned char*)s);
}
