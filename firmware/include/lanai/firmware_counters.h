/* Firmware counters the emulator reports: a firmware registers a 32-bit
 * counter by putting an entry (its name, its address) in the section
 * LANAI_COUNTER_SECTION; after a run every card's registered counters
 * appear among the run's statistics as node<i>.firmware.<name> (the
 * launchers' --stats). Part of the firmware SDK: stable.
 *
 *   LANAI_COUNTER(edf_late_sends);            defines and registers a counter
 *   LANAI_REGISTER_COUNTER(pvia_bad_packets); registers one defined elsewhere
 *
 * Names are the counters' identifiers: letters, digits and '_' (at most 63
 * characters). Counting is an ordinary store (via::count in
 * common/via_counters.h); the entries cost no LANai time. */
#ifndef LANAI_FIRMWARE_COUNTERS_H
#define LANAI_FIRMWARE_COUNTERS_H

#include <stdint.h>

/* The loader keeps every entry of this section together and brackets them
 * with __start_lanai_counters and __stop_lanai_counters, as ELF linkers do
 * for sections named like C identifiers. */
#define LANAI_COUNTER_SECTION "lanai_counters"

/* One entry: two words, the address of the name (a NUL-terminated string)
 * and the address of the counter. */
struct lanai_counter_entry {
  const char* name;
  volatile uint32_t* value;
};

#define LANAI_REGISTER_COUNTER(ident)                                                              \
  __attribute__((                                                                                  \
      used, section(LANAI_COUNTER_SECTION),                                                        \
      aligned(4))) static const struct lanai_counter_entry lanai_counter_entry_##ident = {         \
      #ident, &(ident)}

/* Defines the counter (a plain C symbol, zero at reset like the rest of
 * .bss, so tests can also read it by name) and registers it. */
#ifdef __cplusplus
#define LANAI_COUNTER(ident)                                                                       \
  extern "C" {                                                                                     \
  volatile uint32_t ident;                                                                         \
  }                                                                                                \
  LANAI_REGISTER_COUNTER(ident)
#else
#define LANAI_COUNTER(ident)                                                                       \
  volatile uint32_t ident;                                                                         \
  LANAI_REGISTER_COUNTER(ident)
#endif

#endif /* LANAI_FIRMWARE_COUNTERS_H */
