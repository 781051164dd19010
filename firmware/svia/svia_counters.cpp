// Definitions of SVIA's firmware counters (see svia_counters.h); zero at
// reset like the rest of .bss.
#include "svia_counters.h"

volatile uint32_t svia_sends_completed;
volatile uint32_t svia_sends_failed;
volatile uint32_t svia_receives_completed;
volatile uint32_t svia_receives_failed;
volatile uint32_t svia_packets_sent;
volatile uint32_t svia_packets_received;
volatile uint32_t svia_bad_packets;
volatile uint32_t svia_unmatched_packets;
volatile uint32_t svia_descriptor_faults;
volatile uint32_t svia_hdma_refusals;
volatile uint32_t svia_nrdma_refusals;
volatile uint32_t svia_rdma_refused;
volatile uint32_t svia_rdma_reads_refused;
volatile uint32_t svia_acks_sent;
volatile uint32_t svia_acks_unroutable;
volatile uint32_t svia_acks_received;
volatile uint32_t svia_stray_acks;
volatile uint32_t svia_retransmissions;
volatile uint32_t svia_retransmit_timeouts;
volatile uint32_t svia_connections_lost;
