// The other half of the common-symbol test: a larger common_buf.

__attribute__((common)) char common_buf[200];

void write_common(int v) { common_buf[150] = (char)v; }

// An odd-sized block last in bss: the end of bss is still word-aligned.
__attribute__((common)) char odd_tail[13];

char* tail(void) { return odd_tail; }
