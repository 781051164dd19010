/* The routines the Lanai firmware runtime provides: the integer helpers that
 * clang calls for operations the LANai has no instruction for, and the C
 * memory/string functions. Shared by the firmware build and the native
 * tests. */
#ifndef LANAI_RT_H
#define LANAI_RT_H

#include <stddef.h>
#include <stdint.h>

/* Native test builds compile the same sources for the host; the helpers get
 * a prefix there so they neither clash with nor get replaced by libgcc/libc. */
#ifdef LANAI_RT_NATIVE_TEST
#define LANAI_RT_NAME(x) rt_native_##x
#else
#define LANAI_RT_NAME(x) x
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Multiplication (int_multiply.c). */
int32_t LANAI_RT_NAME(__mulsi3)(int32_t a, int32_t b);
int64_t LANAI_RT_NAME(__muldi3)(int64_t a, int64_t b);
int64_t LANAI_RT_NAME(__mulodi4)(int64_t a, int64_t b, int32_t* overflow);

/* 32-bit division and remainder (int_divide.c). */
uint32_t LANAI_RT_NAME(__udivsi3)(uint32_t n, uint32_t d);
uint32_t LANAI_RT_NAME(__umodsi3)(uint32_t n, uint32_t d);
int32_t LANAI_RT_NAME(__divsi3)(int32_t n, int32_t d);
int32_t LANAI_RT_NAME(__modsi3)(int32_t n, int32_t d);

/* 64-bit division and remainder (int_divide.c). */
uint64_t LANAI_RT_NAME(__udivdi3)(uint64_t n, uint64_t d);
uint64_t LANAI_RT_NAME(__umoddi3)(uint64_t n, uint64_t d);
uint64_t LANAI_RT_NAME(__udivmoddi4)(uint64_t n, uint64_t d, uint64_t* rem);
int64_t LANAI_RT_NAME(__divdi3)(int64_t n, int64_t d);
int64_t LANAI_RT_NAME(__moddi3)(int64_t n, int64_t d);

/* 64-bit shifts by a variable count in 0..63 (int_shift.c). */
int64_t LANAI_RT_NAME(__ashldi3)(int64_t a, int32_t count);
int64_t LANAI_RT_NAME(__lshrdi3)(int64_t a, int32_t count);
int64_t LANAI_RT_NAME(__ashrdi3)(int64_t a, int32_t count);

/* Memory and string functions (string.c). */
void* LANAI_RT_NAME(memcpy)(void* dst, const void* src, size_t n);
void* LANAI_RT_NAME(memmove)(void* dst, const void* src, size_t n);
void* LANAI_RT_NAME(memset)(void* dst, int c, size_t n);
int LANAI_RT_NAME(memcmp)(const void* a, const void* b, size_t n);
size_t LANAI_RT_NAME(strlen)(const char* s);

#ifdef __cplusplus
}
#endif

#endif
