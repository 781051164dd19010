// SVIA's counters (svia_counters.h) registered with the emulator
// (lanai/firmware_counters.h): reported after a run as
// node<i>.firmware.<name>. A counter added to svia_counters.h is added here
// too (tests/firmware_sdk checks).
#include <lanai/firmware_counters.h>

#include "svia_counters.h"

LANAI_REGISTER_COUNTER(svia_sends_completed);
LANAI_REGISTER_COUNTER(svia_sends_failed);
LANAI_REGISTER_COUNTER(svia_receives_completed);
LANAI_REGISTER_COUNTER(svia_receives_failed);
LANAI_REGISTER_COUNTER(svia_packets_sent);
LANAI_REGISTER_COUNTER(svia_packets_received);
LANAI_REGISTER_COUNTER(svia_bad_packets);
LANAI_REGISTER_COUNTER(svia_unmatched_packets);
LANAI_REGISTER_COUNTER(svia_descriptor_faults);
LANAI_REGISTER_COUNTER(svia_hdma_refusals);
LANAI_REGISTER_COUNTER(svia_nrdma_refusals);
LANAI_REGISTER_COUNTER(svia_rdma_refused);
LANAI_REGISTER_COUNTER(svia_rdma_reads_refused);
LANAI_REGISTER_COUNTER(svia_acks_sent);
LANAI_REGISTER_COUNTER(svia_acks_unroutable);
LANAI_REGISTER_COUNTER(svia_acks_received);
LANAI_REGISTER_COUNTER(svia_stray_acks);
LANAI_REGISTER_COUNTER(svia_retransmissions);
LANAI_REGISTER_COUNTER(svia_retransmit_timeouts);
LANAI_REGISTER_COUNTER(svia_connections_lost);
