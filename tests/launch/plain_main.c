/* A position-independent program with main() that is not linked with the
 * VIPL: lanai-emu launch must refuse it by name. */
#include <stdio.h>

int main(void) {
  puts("not a VIA program");
  return 0;
}
