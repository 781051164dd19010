/* The table of corpus cases that both the LANai driver and the native
 * test walk, built from DIFF_CASE_LIST so names and functions cannot drift
 * apart. */
#include "diff_cases.h"

#define DIFF_CASE_ENTRY(name) {#name, diff_##name},
const struct diff_case diff_cases[] = {DIFF_CASE_LIST(DIFF_CASE_ENTRY)};
#undef DIFF_CASE_ENTRY

const uint32_t diff_case_count = (uint32_t)(sizeof diff_cases / sizeof diff_cases[0]);

/* The exchange buffers hold one column per case. */
_Static_assert(sizeof diff_cases / sizeof diff_cases[0] <= DIFF_MAX_CASES,
               "more corpus cases than DIFF_MAX_CASES");
