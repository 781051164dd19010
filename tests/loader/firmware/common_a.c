// Tentative definitions (-fcommon style) shared with common_b.c: the linker
// merges them, taking the larger size and the stricter alignment.

__attribute__((common)) int shared_common;
__attribute__((common, aligned(16))) char common_buf[100];

int read_common(void) { return shared_common + common_buf[3]; }
