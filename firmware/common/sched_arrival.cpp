// First come, first served through the stamped machinery: every request is
// stamped with the cycle the host posted it (or its packet arrived),
// whatever its VI's reservation. The baseline the rate-based policies are
// compared with.
#include "common/scheduler.h"

namespace via {

bool scheduler_orders_queues() { return true; }
Stamping stamp_send(uint32_t, uint32_t, uint64_t posted) { return {posted, 0u}; }
Stamp stamp_receive(uint32_t, uint32_t, uint64_t arrived) { return arrived; }
Stamp stamp_now() { return cycle_now(); }
void stamp_served(Stamp) {}
bool scheduler_tracks_service() { return false; }

} // namespace via
