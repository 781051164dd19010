// First come, first served through the stamped machinery: every request is
// stamped with the cycle its doorbell (or packet) was seen, whatever its
// VI's reservation. The baseline the rate-based policies are compared with.
#include "common/scheduler.h"

namespace via {

bool scheduler_orders_queues() { return true; }
Stamp stamp_send(uint32_t, uint32_t) { return cycle_now(); }
Stamp stamp_receive(uint32_t, uint32_t) { return cycle_now(); }
Stamp stamp_now() { return cycle_now(); }
uint64_t eligible_from(uint32_t, Stamp) { return 0u; }
void stamp_served(Stamp) {}

} // namespace via
