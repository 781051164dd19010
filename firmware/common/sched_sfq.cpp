// Start-time fair queueing: each VI is a flow with a start tag
// S = max(v, F_previous) and a finish tag F = S + cost / rate (here the
// cost of a message at the VI's Vtick), served in increasing start tag;
// virtual time v is the start tag of the work last chosen for service.
// Unlike VirtualClock, stamps do not follow real time, so a flow that has
// been idle, or has used more than its share, cannot lock another out:
// best effort VIs are flows too, with a nominal rate, and keep a share of
// the card under any reserved load.
#include "common/sched_tick.h"
#include "common/scheduler.h"

namespace via {

namespace {

// Best effort weight: the cycles per byte of a nominal ~9 MB/s flow at the
// reference 66 MHz clock.
constexpr uint64_t kBestEffortCyclesPerByte = 7u;

struct Flows {
  uint64_t virtual_time;
  uint64_t finish[VIA_MAX_VI];
};

Flows send_flows;
Flows receive_flows;

Stamp start_tag(Flows& flows, uint32_t vi, uint32_t bytes) {
  uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    tick = static_cast<uint64_t>(vi_config(vi).mtu) * kBestEffortCyclesPerByte;
  uint64_t& finish = flows.finish[vi];
  const uint64_t start = finish > flows.virtual_time ? finish : flows.virtual_time;
  finish = start + message_cost(vi, tick, bytes);
  return start;
}

} // namespace

bool scheduler_orders_queues() { return true; }
Stamp stamp_send(uint32_t vi, uint32_t bytes) { return start_tag(send_flows, vi, bytes); }
// Packets reach the receiver in the sender's order, one at a time: each
// starts service as it is stamped.
Stamp stamp_receive(uint32_t vi, uint32_t bytes) {
  const Stamp start = start_tag(receive_flows, vi, bytes);
  if (start > receive_flows.virtual_time)
    receive_flows.virtual_time = start;
  return start;
}
// Ahead of every flow's waiting work.
Stamp stamp_now() { return 0u; }
uint64_t eligible_from(uint32_t, Stamp) { return 0u; }
void stamp_served(Stamp stamp) {
  if (stamp > send_flows.virtual_time)
    send_flows.virtual_time = stamp;
}

} // namespace via
