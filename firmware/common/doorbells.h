// Taking the host's doorbells off the card: draining the doorbell queues
// (one FIFO, or one per VI), filing each doorbell's descriptor in a per-VI
// ring, and popping those rings in posting order, round-robin over VIs.
// The draining and the round robin are templates so that a firmware's own
// filing and ring lookup are inlined into them: they run for every message.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include "common/descriptor_ring.h"
#include "common/devices.h"
#include "common/ready_list.h"
#include "common/vi_table.h"

namespace via {

// How a firmware drains its doorbells.
struct DoorbellDrain {
  bool per_vi;    // one queue per VI (LANAI_REG_DB_MODE 1), else the merged FIFO
  bool timed;     // read when each doorbell reached the card (schedulers stamp with it)
  uint32_t limit; // doorbells taken per call, 0: all
};

// Reports an overflow the queues showed (or the event word did): counts it,
// clears it and raises the host interrupt. Rare, so out of line.
void report_doorbell_overflow(uint32_t events, const DoorbellDrain& how);
// A doorbell naming no VI, just popped: a flow-controlled VI's, which flow
// control takes (flow_control.h, reading the doorbell again from the
// queue's latch, so that the common path is the same with or without it),
// or one naming none at all, counted and dropped.
void count_bad_doorbell();
// The doorbell the last pop took, read again from the queue's latch.
Doorbell doorbell_latched();
// A descriptor that found its VI's ring full is lost like a dropped
// doorbell: counted, and reported to the host.
void report_ring_overflow(uint32_t vi);
// The VI a limited drain in per-VI mode looks at first, and the next.
extern uint32_t next_doorbell_vi;

// Takes up to `how.limit` doorbells off the queues (in turn from every
// created VI's in per-VI mode) and hands each that names a VI to
// `file(const Doorbell&)`; the rest are counted and dropped. `events` is
// the event-status word that showed doorbells waiting (or an overflow).
// True if the call was limited and took its whole limit: more may wait.
//
// A firmware that folds other rare events into the same visit names them
// in `Rare` and hands `rare`, which then sees every call whose `events`
// show one of them (and must report an overflow itself).
template <uint32_t Rare, class File>
bool drain_doorbell_queues(uint32_t events, const DoorbellDrain& how, File file,
                           void (*rare)(uint32_t events, const DoorbellDrain& how)) {
  if ((events & Rare) != 0u)
    rare(events, how);
  uint32_t budget = how.limit;
  const bool limited = budget != 0u;
  auto take = [&] {
    Doorbell doorbell;
    while ((!limited || budget != 0u) && doorbell_pop(doorbell, how.timed)) {
      --budget;
      // VI numbers come from the host: one naming no VI indexes nothing.
      if (!vi_valid(doorbell.vi))
        count_bad_doorbell();
      else
        file(doorbell);
    }
  };
  if (!how.per_vi) {
    take();
    return limited && budget == 0u;
  }
  // Only VIs the driver has created can have doorbells to take; a limited
  // drain goes on next time from the VI where it stopped.
  for (uint32_t i = 0u; i < VIA_MAX_VI && (!limited || budget != 0u); ++i) {
    const uint32_t vi = (next_doorbell_vi + i) % VIA_MAX_VI;
    if (vi_config(vi).state == VIA_VI_FREE)
      continue;
    doorbell_select(vi);
    take();
    if (limited && budget == 0u)
      next_doorbell_vi = vi;
  }
  return limited && budget == 0u;
}
template <class File>
bool drain_doorbell_queues(uint32_t events, const DoorbellDrain& how, File file) {
  return drain_doorbell_queues<LANAI_EV_DOORBELL_OVERFLOW>(events, how, file,
                                                           &report_doorbell_overflow);
}

// Appends the doorbell's descriptor to `ring`; false (counted and reported
// to the host) if the ring is full.
inline bool push_posted(const Doorbell& doorbell, DescriptorRing& ring) {
  if (ring.push({doorbell.address_lo, doorbell.address_hi, doorbell.handle, doorbell.epoch}))
    return true;
  report_ring_overflow(doorbell.vi);
  return false;
}

// Pops the oldest entry the host has not flushed since posting it; older
// ones (posted before a disconnect, say) are dropped: the host already
// completed them.
bool pop_current(uint32_t vi, DescriptorRing& ring, PostedDescriptor& posted);

// The next send in round-robin order over the VIs in `ready`, whose send
// rings `send_ring(vi)` gives; a VI goes back on the list while it has more.
template <class SendRing>
bool next_round_robin(ReadyList& ready, SendRing send_ring, uint32_t& vi,
                      PostedDescriptor& posted) {
  while (!ready.empty()) {
    vi = ready.pop();
    DescriptorRing& ring = send_ring(vi);
    const bool found = pop_current(vi, ring, posted);
    if (!ring.empty())
      ready.push(vi);
    if (found)
      return true;
  }
  return false;
}

} // namespace via
