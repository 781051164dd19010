// VirtualClock: each VI keeps auxVC, the time its traffic would have
// reached had it always sent at its reserved rate. A request is stamped
// auxVC = max(now, auxVC) + Vtick, so a VI ahead of its rate gets stamps
// in the future and yields to the others. Best effort is stamped last and
// so waits for every reserved request that is due: it starves while
// reserved demand fills the card. A reserved request is due from its ideal
// start (stamp - Vtick); a VI that runs ahead of its rate (a saturated
// sender) is served ahead of best effort only up to its reservation, so
// best effort gets what the reservations leave, and gets it first only
// when no reserved request is due.
#include "common/sched_tick.h"
#include "common/scheduler.h"

namespace via {

namespace {

uint64_t send_clock[VIA_MAX_VI];
uint64_t receive_clock[VIA_MAX_VI];

Stamp advance(uint64_t& aux, uint32_t vi, uint32_t bytes) {
  const uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    return kStampLast;
  const uint64_t now = cycle_now();
  if (aux < now)
    aux = now;
  aux += message_cost(vi, tick, bytes);
  return aux;
}

} // namespace

bool scheduler_orders_queues() { return true; }
Stamp stamp_send(uint32_t vi, uint32_t bytes) { return advance(send_clock[vi], vi, bytes); }
Stamp stamp_receive(uint32_t vi, uint32_t bytes) {
  return advance(receive_clock[vi], vi, bytes);
}
Stamp stamp_now() { return cycle_now(); }
uint64_t eligible_from(uint32_t vi, Stamp stamp) {
  const uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    return 0u;
  return stamp > tick ? stamp - tick : 0u;
}
void stamp_served(Stamp) {}

} // namespace via
