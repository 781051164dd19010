/* Firmware that waits on a word of SRAM the host writes (a mailbox),
 * reading it without storing anything, so that a core with fast-forward
 * sleeps in the loop. When the word changes, it notes the value and the
 * cycle it saw it at, and waits for the next. */
#include <stdint.h>

#include <lanai/register_map.h>

volatile uint32_t mailbox;
volatile uint32_t seen_value;
volatile uint32_t seen_cycle;
volatile uint32_t seen_count;

int main(void) {
  uint32_t last = 0;
  for (;;) {
    uint32_t value;
    while ((value = mailbox) == last) {
    }
    seen_cycle = *(volatile uint32_t*)LANAI_REG_CYCLE_LO;
    seen_value = value;
    seen_count = seen_count + 1;
    last = value;
  }
}
