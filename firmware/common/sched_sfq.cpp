// Start-time fair queueing with rate-regulated reservations. Each VI is a
// flow with a start tag S = max(v, F_previous) and a finish tag
// F = S + cost / rate, served in increasing start tag; virtual time v is the
// start tag of the work last chosen for service. Unlike VirtualClock, tags
// do not follow real time, so a flow that has been idle, or has used more
// than its share, cannot lock another out: best effort VIs are flows too,
// with a floor weight, and keep a share of the card under any reserved load.
// A reserved flow is also regulated to its rate: its work is due only from
// the time it would start had the flow always sent at its reserved rate, and
// work not yet due waits while anything due (best effort always is) can go.
// So reservations that fit get their rate, best effort gets the rest, and
// when reservations exceed the card the flows share it by weight.
#include "common/sched_tick.h"
#include "common/scheduler.h"

namespace via {

namespace {

// Best effort's floor weight: the cycles per byte of a ~9 MB/s flow at the
// reference 66 MHz clock.
constexpr uint64_t kBestEffortCyclesPerByte = 7u;

struct Flows {
  uint64_t virtual_time;
  uint64_t finish[VIA_MAX_VI];
};

Flows send_flows;
Flows receive_flows;
uint64_t regulator[VIA_MAX_VI]; // when each reserved send flow's next work is due

uint64_t flow_tick(uint32_t vi) {
  const uint64_t tick = vi_vtick(vi);
  if (tick == kBestEffortTick)
    return static_cast<uint64_t>(vi_config(vi).mtu) * kBestEffortCyclesPerByte;
  return tick;
}

Stamp start_tag(Flows& flows, uint32_t vi, uint64_t cost) {
  uint64_t& finish = flows.finish[vi];
  const uint64_t start = finish > flows.virtual_time ? finish : flows.virtual_time;
  finish = start + cost;
  return start;
}

} // namespace

bool scheduler_orders_queues() { return true; }

Stamping stamp_send(uint32_t vi, uint32_t bytes, uint64_t posted) {
  const uint64_t cost = message_cost(vi, flow_tick(vi), bytes);
  const Stamp start = start_tag(send_flows, vi, cost);
  if (vi_vtick(vi) == kBestEffortTick)
    return {start, 0u};
  uint64_t& next = regulator[vi];
  const uint64_t due = next > posted ? next : posted;
  next = due + cost;
  return {start, due};
}

// Packets reach the receiver in the sender's order, one at a time: each
// starts service as it is stamped.
Stamp stamp_receive(uint32_t vi, uint32_t bytes, uint64_t) {
  const Stamp start = start_tag(receive_flows, vi, message_cost(vi, flow_tick(vi), bytes));
  if (start > receive_flows.virtual_time)
    receive_flows.virtual_time = start;
  return start;
}
// Ahead of every flow's waiting work.
Stamp stamp_now() { return 0u; }
void stamp_served(Stamp stamp) {
  if (stamp > send_flows.virtual_time)
    send_flows.virtual_time = stamp;
}
bool scheduler_tracks_service() { return true; }

} // namespace via
