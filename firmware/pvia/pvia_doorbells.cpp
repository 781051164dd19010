// The work the host has posted: doorbells drained from the card's doorbell
// queues into per-VI send and receive rings, the round-robin choice of which
// VI's send goes next, and the wake-up of the receive engine when receives
// are posted. Under a stamp-ordering scheduler each send is stamped as its
// doorbell is seen, and the smallest stamp goes next instead.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/doorbells.h"
#include "common/sram_placement.h"
#include "common/vi_set.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

via::ReadyList ready_to_send;
via::ViSet sends_waiting;

namespace {

// Stamps of the sends in a VI's ring, in the same order (free-running
// counts like the ring's own), with a card-wide doorbell number to break ties.
struct SendStamps {
  static constexpr uint32_t kMask = via::DescriptorRing::kCapacity - 1u;
  via::Stamp stamps[via::DescriptorRing::kCapacity] = {};
  uint32_t serials[via::DescriptorRing::kCapacity] = {};
  uint32_t head = 0u;
  uint32_t tail = 0u;
};

struct ViQueues {
  via::DescriptorRing send;
  via::DescriptorRing receive;
  SendStamps send_stamps;
};

VIA_ZEROED_AT_LOAD ViQueues queues[VIA_MAX_VI]{};
bool per_vi_doorbells;
bool stamp_ordered;
uint32_t doorbell_serial;

void accept(const via::Doorbell& doorbell) {
  ViQueues& vi = queues[doorbell.vi];
  via::DescriptorRing& ring = doorbell.receive ? vi.receive : vi.send;
  const bool was_empty = ring.empty();
  if (!via::push_posted(doorbell, ring))
    return;
  if (doorbell.receive) {
    receive_posted(doorbell.vi);
  } else if (stamp_ordered) {
    SendStamps& stamps = vi.send_stamps;
    // The message's size is not known yet: 0 asks for a whole Vtick.
    stamps.stamps[stamps.tail & SendStamps::kMask] = via::stamp_send(doorbell.vi, 0u);
    stamps.serials[stamps.tail & SendStamps::kMask] = doorbell_serial++;
    ++stamps.tail;
    sends_waiting.add(doorbell.vi);
  } else if (was_empty) {
    ready_to_send.push(doorbell.vi);
  }
}

// via::pop_current for a send ring under stamp ordering: the stamps are
// popped in step with the entries, stale ones included.
bool pop_current_stamped(uint32_t vi, ViQueues& q, via::PostedDescriptor& posted,
                         via::Stamp& stamp) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (q.send.pop(posted)) {
    stamp = q.send_stamps.stamps[q.send_stamps.head & SendStamps::kMask];
    ++q.send_stamps.head;
    if (posted.epoch == epoch)
      return true;
    count(via_stale_descriptors);
  }
  return false;
}

via::DescriptorRing& send_ring(uint32_t vi) { return queues[vi].send; }

// The VI whose oldest waiting send has the smallest stamp, earliest
// doorbell first among equals, among the VIs whose oldest send is due (or
// among all if none is); false if no VI has one.
bool smallest_stamp(uint32_t& chosen) {
  if (sends_waiting.empty())
    return false; // the idle main loop's case: no clock read
  const uint64_t now = via::cycle_now();
  bool found = false;
  bool found_due = false;
  via::Stamp best_stamp = 0u;
  uint32_t best_serial = 0u;
  sends_waiting.for_each([&](uint32_t vi) {
    const ViQueues& q = queues[vi];
    const via::Stamp stamp = q.send_stamps.stamps[q.send_stamps.head & SendStamps::kMask];
    const uint32_t serial = q.send_stamps.serials[q.send_stamps.head & SendStamps::kMask];
    const bool due = via::eligible_from(vi, stamp) <= now;
    if (found_due && !due)
      return;
    if (found && due == found_due &&
        (stamp > best_stamp ||
         (stamp == best_stamp && static_cast<int32_t>(serial - best_serial) > 0)))
      return;
    found = true;
    found_due = due;
    chosen = vi;
    best_stamp = stamp;
    best_serial = serial;
  });
  return found;
}

} // namespace

void start_doorbells() {
  per_vi_doorbells = via::doorbells_per_vi();
  stamp_ordered = via::scheduler_orders_queues();
}

void drain_doorbells(uint32_t events) {
  via::drain_doorbell_queues(events, per_vi_doorbells, accept);
}

bool next_send(uint32_t& vi, via::PostedDescriptor& posted, via::Stamp& stamp) {
  if (stamp_ordered) {
    while (smallest_stamp(vi)) {
      ViQueues& q = queues[vi];
      const bool found = pop_current_stamped(vi, q, posted, stamp);
      if (q.send.empty())
        sends_waiting.remove(vi);
      if (found) {
        via::stamp_served(stamp);
        return true;
      }
    }
    return false;
  }
  stamp = 0u;
  return via::next_round_robin(ready_to_send, send_ring, vi, posted);
}

bool next_receive(uint32_t vi, via::PostedDescriptor& posted) {
  return via::pop_current(vi, queues[vi].receive, posted);
}

bool receives_waiting(uint32_t vi) { return !queues[vi].receive.empty(); }

} // namespace pvia
