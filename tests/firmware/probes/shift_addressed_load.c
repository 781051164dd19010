/* A load through a variably shifted address: clang-14 folds it into the
 * [%a sh %b] addressing form, which shifts the wrong way. Built only for
 * the test that the shift-addressing check catches it. */
char load_shifted(const char* base, unsigned shift) {
  return *(const char*)((unsigned)base >> shift);
}
