// PVIA's counters (pvia_counters.h) registered with the emulator
// (lanai/firmware_counters.h): reported after a run as
// node<i>.firmware.<name>. A counter added to pvia_counters.h is added here
// too (tests/firmware_sdk checks).
#include <lanai/firmware_counters.h>

#include "pvia_counters.h"

LANAI_REGISTER_COUNTER(pvia_sends_completed);
LANAI_REGISTER_COUNTER(pvia_sends_failed);
LANAI_REGISTER_COUNTER(pvia_receives_completed);
LANAI_REGISTER_COUNTER(pvia_receives_failed);
LANAI_REGISTER_COUNTER(pvia_packets_sent);
LANAI_REGISTER_COUNTER(pvia_packets_received);
LANAI_REGISTER_COUNTER(pvia_bad_packets);
LANAI_REGISTER_COUNTER(pvia_unmatched_packets);
LANAI_REGISTER_COUNTER(pvia_descriptor_faults);
LANAI_REGISTER_COUNTER(pvia_hdma_refusals);
LANAI_REGISTER_COUNTER(pvia_hdma_overflows);
LANAI_REGISTER_COUNTER(pvia_hdma_strays);
LANAI_REGISTER_COUNTER(pvia_hdma_late_inserts);
LANAI_REGISTER_COUNTER(pvia_hdma_reordered);
LANAI_REGISTER_COUNTER(pvia_nrdma_refusals);
LANAI_REGISTER_COUNTER(pvia_receive_prefetches);
LANAI_REGISTER_COUNTER(pvia_arrival_stalls);
LANAI_REGISTER_COUNTER(pvia_stray_fragments);
LANAI_REGISTER_COUNTER(pvia_rdma_refused);
LANAI_REGISTER_COUNTER(pvia_broken_messages);
LANAI_REGISTER_COUNTER(pvia_messages_resumed);
LANAI_REGISTER_COUNTER(pvia_acks_sent);
LANAI_REGISTER_COUNTER(pvia_acks_merged);
LANAI_REGISTER_COUNTER(pvia_retransmissions);
LANAI_REGISTER_COUNTER(pvia_acks_delayed);
LANAI_REGISTER_COUNTER(pvia_retransmit_timeouts);
LANAI_REGISTER_COUNTER(pvia_connections_lost);
LANAI_REGISTER_COUNTER(pvia_acks_unroutable);
LANAI_REGISTER_COUNTER(pvia_ack_waits);
LANAI_REGISTER_COUNTER(pvia_acks_received);
LANAI_REGISTER_COUNTER(pvia_stray_acks);
LANAI_REGISTER_COUNTER(pvia_rdma_reads_served);
LANAI_REGISTER_COUNTER(pvia_rdma_reads_refused);
