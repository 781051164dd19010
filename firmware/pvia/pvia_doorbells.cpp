// The work the host has posted: doorbells drained from the card's doorbell
// queues into per-VI send and receive rings, the round-robin choice of which
// VI's send goes next, and the wake-up of the receive engine when receives
// are posted.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/descriptor_ring.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"

namespace pvia {

namespace {

struct ViQueues {
  via::DescriptorRing send;
  via::DescriptorRing receive;
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
  if (doorbell.receive)
    receive_posted(doorbell.vi);
  else if (was_empty)
    ready_to_send.push(doorbell.vi);
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

// Pops the oldest entry the host has not flushed since posting it.
bool pop_current(uint32_t vi, via::DescriptorRing& ring, via::PostedDescriptor& posted) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  while (ring.pop(posted)) {
    if (posted.epoch == epoch)
      return true;
    count(pvia_stale_descriptors);
  }
  return false;
}

} // namespace

void start_doorbells() { per_vi_doorbells = via::doorbells_per_vi(); }

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

bool next_send(uint32_t& vi, via::PostedDescriptor& posted) {
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
