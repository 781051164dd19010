// Definitions of PVIA's firmware counters (see pvia_counters.h); zero at
// reset like the rest of .bss.
#include "pvia_counters.h"

#include "common/sram_placement.h"

volatile uint32_t pvia_sends_completed;
volatile uint32_t pvia_sends_failed;
volatile uint32_t pvia_receives_completed;
volatile uint32_t pvia_receives_failed;
volatile uint32_t pvia_packets_sent;
volatile uint32_t pvia_packets_received;
volatile uint32_t pvia_bad_packets;
volatile uint32_t pvia_unmatched_packets;
volatile uint32_t pvia_descriptor_faults;
volatile uint32_t pvia_hdma_refusals;
volatile uint32_t pvia_hdma_overflows;
volatile uint32_t pvia_hdma_strays;
volatile uint32_t pvia_hdma_late_inserts;
volatile uint32_t pvia_hdma_reordered;
volatile uint32_t pvia_nrdma_refusals;
volatile uint32_t pvia_receive_prefetches;
volatile uint32_t pvia_arrival_stalls;
volatile uint32_t pvia_stray_fragments;
volatile uint32_t pvia_rdma_refused;
volatile uint32_t pvia_broken_messages;
// Zero at load, so that start-up does not grow with it.
VIA_ZEROED_AT_LOAD volatile uint32_t pvia_messages_resumed{};
volatile uint32_t pvia_acks_sent;
volatile uint32_t pvia_acks_merged;
volatile uint32_t pvia_retransmissions;
volatile uint32_t pvia_acks_delayed;
volatile uint32_t pvia_retransmit_timeouts;
volatile uint32_t pvia_connections_lost;
volatile uint32_t pvia_acks_unroutable;
volatile uint32_t pvia_ack_waits;
volatile uint32_t pvia_acks_received;
volatile uint32_t pvia_stray_acks;
volatile uint32_t pvia_rdma_reads_served;
volatile uint32_t pvia_rdma_reads_refused;
