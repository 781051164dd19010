// A scheduler variant that forgets one function of common/scheduler.h
// (stamp_served): it replaces QoS-VIA's scheduler part, so the engine's
// reference to the missing function is left unresolved and every run must
// refuse the firmware at its start, naming the symbol and the object.
#include "common/scheduler.h"

namespace via {

bool scheduler_orders_queues() { return true; }
Stamping stamp_send(uint32_t, uint32_t, uint64_t posted) { return {posted, 0u}; }
Stamp stamp_receive(uint32_t, uint32_t, uint64_t arrived) { return arrived; }
Stamp stamp_now() { return cycle_now(); }
bool scheduler_tracks_service() { return false; }

} // namespace via
