// The work the host has posted: doorbells drained from the card's doorbell
// queues into per-VI send and receive rings, the round-robin choice of which
// VI's send goes next, and the wake-up of the receive engine when receives
// are posted. Under a stamp-ordering scheduler each send is stamped as its
// doorbell is seen, and the smallest stamp goes next instead.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/descriptor_ring.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

namespace {

// Stamps of the sends in a VI's ring, in the same order (free-running
// counts like the ring's own), with a card-wide doorbell number to break ties.
struct SendStamps {
  static constexpr uint32_t kMask = via::DescriptorRing::kCapacity - 1u;
  via::Stamp stamps[via::DescriptorRing::kCapacity];
  uint32_t serials[via::DescriptorRing::kCapacity];
  uint32_t head;
  uint32_t tail;
};

struct ViQueues {
  via::DescriptorRing send;
  via::DescriptorRing receive;
  SendStamps send_stamps;
};

// The VIs with a send waiting, in serving order: a VI is listed exactly
// while its send ring is not empty and goes to the back after each send.
class ReadyList {
public:
  bool empty() const { return head_ == tail_; }
  void push(uint32_t vi) {
    order_[tail_ % VIA_MAX_VI] = static_cast<uint8_t>(vi);
    ++tail_;
  }
  uint32_t pop() {
    const uint32_t vi = order_[head_ % VIA_MAX_VI];
    ++head_;
    return vi;
  }

private:
  uint8_t order_[VIA_MAX_VI] = {};
  uint32_t head_ = 0u;
  uint32_t tail_ = 0u;
};

VIA_ZEROED_AT_LOAD ViQueues queues[VIA_MAX_VI];
ReadyList ready_to_send;
bool per_vi_doorbells;
bool stamp_ordered;
uint32_t doorbell_serial;
// Bit per VI whose send ring is not empty, so the stamp search skips idle VIs.
uint32_t sends_waiting;
static_assert(VIA_MAX_VI <= 32u, "one bit per VI");

void accept(const via::Doorbell& doorbell) {
  if (!via::vi_valid(doorbell.vi)) {
    count(pvia_bad_doorbells);
    return;
  }
  const via::PostedDescriptor posted{doorbell.address_lo, doorbell.address_hi, doorbell.handle,
                                     doorbell.epoch};
  ViQueues& vi = queues[doorbell.vi];
  via::DescriptorRing& ring = doorbell.receive ? vi.receive : vi.send;
  const bool was_empty = ring.empty();
  if (!ring.push(posted)) {
    count(pvia_ring_overflows);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, doorbell.vi));
    return;
  }
  if (doorbell.receive) {
    receive_posted(doorbell.vi);
  } else if (stamp_ordered) {
    SendStamps& stamps = vi.send_stamps;
    // The message's size is not known yet: 0 asks for a whole Vtick.
    stamps.stamps[stamps.tail & SendStamps::kMask] = via::stamp_send(doorbell.vi, 0u);
    stamps.serials[stamps.tail & SendStamps::kMask] = doorbell_serial++;
    ++stamps.tail;
    sends_waiting |= 1u << doorbell.vi;
  } else if (was_empty) {
    ready_to_send.push(doorbell.vi);
  }
}

// Empties the selected queue; true if it had overflowed since last looked at.
bool drain_selected_queue() {
  const uint32_t status = via::doorbell_status();
  const bool overflowed = (status & LANAI_DB_STATUS_OVERFLOW) != 0u;
  if (overflowed)
    via::doorbell_clear_overflow();
  if ((status & LANAI_DB_STATUS_COUNT_MASK) != 0u) {
    via::Doorbell doorbell;
    while (via::doorbell_pop(doorbell))
      accept(doorbell);
  }
  return overflowed;
}

// Pops the oldest entry the host has not flushed since posting it, and
// (if `stamps`) the stamp of each entry popped.
bool pop_current(uint32_t vi, via::DescriptorRing& ring, via::PostedDescriptor& posted,
                 SendStamps* stamps = nullptr, via::Stamp* stamp = nullptr) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (ring.pop(posted)) {
    if (stamps != nullptr) {
      *stamp = stamps->stamps[stamps->head & SendStamps::kMask];
      ++stamps->head;
    }
    if (posted.epoch == epoch)
      return true;
    count(pvia_stale_descriptors);
  }
  return false;
}

// The VI whose oldest waiting send has the smallest stamp, earliest
// doorbell first among equals, among the VIs whose oldest send is due (or
// among all if none is); false if no VI has one.
bool smallest_stamp(uint32_t& chosen) {
  const uint64_t now = via::cycle_now();
  bool found = false;
  bool found_due = false;
  via::Stamp best_stamp = 0u;
  uint32_t best_serial = 0u;
  for (uint32_t waiting = sends_waiting; waiting != 0u; waiting &= waiting - 1u) {
    const uint32_t vi = static_cast<uint32_t>(__builtin_ctz(waiting));
    const ViQueues& q = queues[vi];
    const via::Stamp stamp = q.send_stamps.stamps[q.send_stamps.head & SendStamps::kMask];
    const uint32_t serial = q.send_stamps.serials[q.send_stamps.head & SendStamps::kMask];
    const bool due = via::eligible_from(vi, stamp) <= now;
    if (found_due && !due)
      continue;
    if (found && due == found_due &&
        (stamp > best_stamp ||
         (stamp == best_stamp && static_cast<int32_t>(serial - best_serial) > 0)))
      continue;
    found = true;
    found_due = due;
    chosen = vi;
    best_stamp = stamp;
    best_serial = serial;
  }
  return found;
}

} // namespace

void start_doorbells() {
  per_vi_doorbells = via::doorbells_per_vi();
  stamp_ordered = via::scheduler_orders_queues();
}

void drain_doorbells(uint32_t events) {
  bool overflowed = false;
  if (per_vi_doorbells) {
    for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
      if (via::vi_config(vi).state == VIA_VI_FREE)
        continue;
      via::doorbell_select(vi);
      if (drain_selected_queue())
        overflowed = true;
    }
  } else {
    overflowed = drain_selected_queue();
  }
  if (!overflowed && (events & LANAI_EV_DOORBELL_OVERFLOW) != 0u) {
    via::doorbell_clear_overflow();
    overflowed = true;
  }
  if (overflowed) {
    count(pvia_doorbell_overflows);
    via::raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, 0xFFFFu));
  }
}

bool next_send(uint32_t& vi, via::PostedDescriptor& posted, via::Stamp& stamp) {
  if (stamp_ordered) {
    while (smallest_stamp(vi)) {
      ViQueues& q = queues[vi];
      const bool found = pop_current(vi, q.send, posted, &q.send_stamps, &stamp);
      if (q.send.empty())
        sends_waiting &= ~(1u << vi);
      if (found) {
        via::stamp_served(stamp);
        return true;
      }
    }
    return false;
  }
  stamp = 0u;
  while (!ready_to_send.empty()) {
    vi = ready_to_send.pop();
    via::DescriptorRing& ring = queues[vi].send;
    const bool found = pop_current(vi, ring, posted);
    if (!ring.empty())
      ready_to_send.push(vi);
    if (found)
      return true;
  }
  return false;
}

bool next_receive(uint32_t vi, via::PostedDescriptor& posted) {
  return pop_current(vi, queues[vi].receive, posted);
}

bool receives_waiting(uint32_t vi) { return !queues[vi].receive.empty(); }

} // namespace pvia
