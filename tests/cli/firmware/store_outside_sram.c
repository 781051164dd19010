/* Faulting firmware for the CLI tests: stores one word past the end of the
 * default 2 MiB SRAM, which the processor must report as a bus error naming
 * the function below. */
#include <stdint.h>

/* Far beyond the default SRAM but below the register window. */
#define OUTSIDE_SRAM 0x00800000u

/* noinline so the fault report's pc lands in a function with this name. */
__attribute__((noinline)) void store_outside_sram(uint32_t value) {
  *(volatile uint32_t*)(uintptr_t)OUTSIDE_SRAM = value;
}

int main(void) {
  store_outside_sram(0x5A5A5A5Au);
  return 0; /* not reached: the store faults */
}
