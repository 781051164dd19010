/* Firmware that runs briefly, then stores outside SRAM: the card's core
 * faults, which a cluster run must report as a firmware stop. */
#include <stdint.h>

static volatile uint32_t spins;

int main(void) {
  for (uint32_t i = 0; i < 1000; ++i)
    ++spins;
  *(volatile uint32_t*)0x00F00000u = 1;
  for (;;)
    ++spins;
}
