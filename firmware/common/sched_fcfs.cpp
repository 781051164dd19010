// First come, first served without stamps: PVIA's order. Queues stay FIFO
// and the VIs with sends waiting take turns.
#include "common/scheduler.h"

namespace via {

bool scheduler_orders_queues() { return false; }
Stamping stamp_send(uint32_t, uint32_t, uint64_t) { return {0u, 0u}; }
Stamp stamp_receive(uint32_t, uint32_t, uint64_t) { return 0u; }
Stamp stamp_now() { return 0u; }
void stamp_served(Stamp) {}
bool scheduler_tracks_service() { return false; }

} // namespace via
