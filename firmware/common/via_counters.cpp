// Definitions of the shared firmware counters (see via_counters.h); zero at
// reset like the rest of .bss.
#include "common/via_counters.h"

volatile uint32_t via_doorbell_overflows;
volatile uint32_t via_ring_overflows;
volatile uint32_t via_stale_descriptors;
volatile uint32_t via_bad_doorbells;
volatile uint32_t via_sequence_gaps;
volatile uint32_t via_duplicates_dropped;
volatile uint32_t via_out_of_sequence_dropped;
volatile uint32_t via_unreliable_drops;
volatile uint32_t via_recvq_empty_errors;
