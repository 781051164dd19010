/* Faulting firmware for the CLI tests: writes a word inside the register
 * window where no device register exists (just past the system block). */
#include <lanai/register_map.h>

/* Offset 0x100 is the first word after the system block's registers. */
#define UNMAPPED_REGISTER LANAI_REG(0x0100)

__attribute__((noinline)) void poke_unmapped_register(uint32_t value) {
  lanai_mmio_write(UNMAPPED_REGISTER, value);
}

int main(void) {
  poke_unmapped_register(1u);
  return 0; /* not reached: the store faults */
}
