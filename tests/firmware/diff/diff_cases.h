/* The differential-execution corpus: small functions that run both natively
 * and on the emulated LANai, whose results must agree bit for bit. Each
 * case maps four 64-bit inputs to one 64-bit result and is free of
 * undefined, endian- or width-dependent behaviour, so any difference is a
 * bug in the simulator, the runtime helpers or the loader. */
#ifndef LANAI_DIFF_CASES_H
#define LANAI_DIFF_CASES_H

#include <stddef.h>
#include <stdint.h>

/* Capacity of the exchange buffers in diff_driver.c. */
#define DIFF_MAX_INPUTS 64
#define DIFF_MAX_CASES 64

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t (*diff_case_fn)(const uint64_t in[4]);

struct diff_case {
  const char* name;
  uint64_t (*fn)(const uint64_t in[4]);
};

extern const struct diff_case diff_cases[];
extern const uint32_t diff_case_count;

/* Every case, in table order. X(name) stands for the function diff_<name>;
 * the table in diff_case_table.c is generated from this list. */
#define DIFF_CASE_LIST(X)                                                                          \
  X(add_sub_carry64)                                                                               \
  X(negate_offset64)                                                                               \
  X(mul64_wrap)                                                                                    \
  X(mul32_widening)                                                                                \
  X(udiv_umod64)                                                                                   \
  X(sdiv_smod64)                                                                                   \
  X(udiv_umod32)                                                                                   \
  X(sdiv_smod32)                                                                                   \
  X(div_by_constants)                                                                              \
  X(shifts64_variable)                                                                             \
  X(shifts32_variable)                                                                             \
  X(overflow_builtins)                                                                             \
  X(gcd_euclid)                                                                                    \
  X(popcount_parity)                                                                               \
  X(clz_ctz)                                                                                       \
  X(bit_reverse)                                                                                   \
  X(byte_swap)                                                                                     \
  X(rotations)                                                                                     \
  X(crc32_bytes)                                                                                   \
  X(fnv1a_murmur)                                                                                  \
  X(bitfield_extract)                                                                              \
  X(nested_loops)                                                                                  \
  X(switch_dense)                                                                                  \
  X(switch_sparse)                                                                                 \
  X(switch_jump_table)                                                                             \
  X(ackermann_small)                                                                               \
  X(fib_recursive)                                                                                 \
  X(quicksort_local)                                                                               \
  X(function_table)                                                                                \
  X(conditional_selects)                                                                           \
  X(compare_all)                                                                                   \
  X(collatz_steps)                                                                                 \
  X(struct_by_value)                                                                               \
  X(global_rmw)                                                                                    \
  X(sign_zero_extend)                                                                              \
  X(wrap8_16)                                                                                      \
  X(insertion_sort)                                                                                \
  X(mem_functions)                                                                                 \
  X(matrix4_multiply)                                                                              \
  X(byte_buffer_walk)                                                                              \
  X(varargs_mixed)                                                                                 \
  X(cpp_templates)                                                                                 \
  X(cpp_virtual_dispatch)                                                                          \
  X(cpp_lambdas)                                                                                   \
  X(cpp_fixed_stack)                                                                               \
  X(cpp_crtp_constexpr)

#define DIFF_DECLARE_CASE(name) uint64_t diff_##name(const uint64_t in[4]);
DIFF_CASE_LIST(DIFF_DECLARE_CASE)
#undef DIFF_DECLARE_CASE

#ifdef __cplusplus
}
#endif

#endif
