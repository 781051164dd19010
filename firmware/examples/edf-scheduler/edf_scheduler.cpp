// Earliest deadline first, as a scheduler for QoS-VIA's engine (the
// interface of common/scheduler.h): a message of a reserved VI is due one
// Vtick after the host posted it (its reserved interval, scaled down for a
// short packet), best effort kBestEffortSlack cycles after. Work is served
// in deadline order, so best effort waits behind reserved work due sooner
// but, unlike under VirtualClock, never starves. Counts what it stamps and
// the sends that start after their deadline, and marks each such start in
// the device trace as edf:late.
#include <lanai/firmware_counters.h>

#include "common/sched_tick.h"
#include "common/scheduler.h"
#include "common/trace_scope.h"
#include "common/via_counters.h"

LANAI_COUNTER(edf_stamps);      // sends, fragments and packets stamped
LANAI_COUNTER(edf_late_starts); // sends (fragments) started after their deadline

namespace via {

namespace {

// 2 ms at the reference 66 MHz clock.
constexpr uint64_t kBestEffortSlack = 132000u;

uint64_t relative_deadline(uint32_t vi, uint32_t bytes) {
  const uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    return kBestEffortSlack;
  return message_cost(vi, tick, bytes);
}

} // namespace

bool scheduler_orders_queues() { return true; }

// A later fragment of a message comes with `posted` 0: its stamp is then
// below the message's, and the engine keeps the message's deadline.
Stamping stamp_send(uint32_t vi, uint32_t bytes, uint64_t posted) {
  count(edf_stamps);
  return {posted + relative_deadline(vi, bytes), 0u};
}

Stamp stamp_receive(uint32_t vi, uint32_t bytes, uint64_t arrived) {
  count(edf_stamps);
  return arrived + relative_deadline(vi, bytes);
}

// Work of no flow (a receive descriptor prefetch) is due now.
Stamp stamp_now() { return cycle_now(); }

// The engine calls this as it starts each send's (fragment's) data.
void stamp_served(Stamp deadline) {
  if (cycle_now() <= deadline)
    return;
  TraceScope mark("edf:late");
  count(edf_late_starts);
}

bool scheduler_tracks_service() { return true; }

} // namespace via
