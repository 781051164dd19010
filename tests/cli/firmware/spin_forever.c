/* Firmware that never exits, for the CLI's --max-cycles limit. The counter
 * is volatile so the loop keeps doing memory work instead of being folded
 * into a bare branch. */
#include <stdint.h>

static volatile uint32_t spins;

int main(void) {
  for (;;)
    ++spins;
}
