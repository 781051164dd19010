// The shared counters (common/via_counters.h, common/devices.h) registered
// with the emulator (lanai/firmware_counters.h), so that every VIA firmware
// reports them after a run as node<i>.firmware.<name>. A counter added to
// those headers is added here too (tests/firmware_sdk checks).
#include <lanai/firmware_counters.h>

#include "common/devices.h"
#include "common/via_counters.h"

LANAI_REGISTER_COUNTER(via_doorbell_overflows);
LANAI_REGISTER_COUNTER(via_ring_overflows);
LANAI_REGISTER_COUNTER(via_stale_descriptors);
LANAI_REGISTER_COUNTER(via_bad_doorbells);
LANAI_REGISTER_COUNTER(via_sequence_gaps);
LANAI_REGISTER_COUNTER(via_duplicates_dropped);
LANAI_REGISTER_COUNTER(via_out_of_sequence_dropped);
LANAI_REGISTER_COUNTER(via_unreliable_drops);
LANAI_REGISTER_COUNTER(via_recvq_empty_errors);
LANAI_REGISTER_COUNTER(via_flow_credit_waits);
LANAI_REGISTER_COUNTER(via_flow_credits_sent);
LANAI_REGISTER_COUNTER(via_flow_credit_requests);
LANAI_REGISTER_COUNTER(via_hdma_stray_completions);
