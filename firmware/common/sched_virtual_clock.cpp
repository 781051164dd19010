// VirtualClock, as published: each VI keeps auxVC, the time its traffic
// would have reached had it always sent at its reserved rate. A request
// posted at time t is stamped auxVC = max(t, auxVC) + Vtick and requests are
// served in stamp order, so a VI ahead of its rate gets stamps in the
// future and yields to the others. Best effort has an infinite Vtick: it is
// stamped last and served only when no reserved request waits, so it
// starves while reserved demand fills the card (admission control, or a
// fair-queueing policy, is the remedy).
#include "common/sched_tick.h"
#include "common/scheduler.h"

namespace via {

namespace {

uint64_t send_clock[VIA_MAX_VI];
uint64_t receive_clock[VIA_MAX_VI];

Stamp advance(uint64_t& aux, uint32_t vi, uint32_t bytes, uint64_t at) {
  const uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    return kStampLast;
  if (aux < at)
    aux = at;
  aux += message_cost(vi, tick, bytes);
  return aux;
}

} // namespace

bool scheduler_orders_queues() { return true; }
Stamping stamp_send(uint32_t vi, uint32_t bytes, uint64_t posted) {
  return {advance(send_clock[vi], vi, bytes, posted), 0u};
}
Stamp stamp_receive(uint32_t vi, uint32_t bytes, uint64_t arrived) {
  return advance(receive_clock[vi], vi, bytes, arrived);
}
Stamp stamp_now() { return cycle_now(); }
void stamp_served(Stamp) {}
bool scheduler_tracks_service() { return false; }

} // namespace via
