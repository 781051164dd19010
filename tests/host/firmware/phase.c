/* Firmware whose idle loop makes a store and undoes it within each lap (the
 * idle watch accepts that), so that SRAM holds a value in the middle of a
 * lap that it does not hold at the lap's end: a host reading SRAM sees
 * which part of the lap the core stands in. */
#include <stdint.h>

volatile uint32_t mailbox;
volatile uint32_t phase;
volatile uint32_t seen_count;

int main(void) {
  uint32_t last = 0;
  for (;;) {
    uint32_t value;
    do {
      phase = 1;
      value = mailbox;
      phase = 0;
    } while (value == last);
    seen_count = seen_count + 1;
    last = value;
  }
}
