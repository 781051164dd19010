// Draining the doorbell queues into per-VI rings and popping those rings
// (see doorbells.h), the same for every firmware; what a filed doorbell
// then sets off is up to the firmware's `file` callback.
#include "common/doorbells.h"

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/vi_table.h"
#include "common/via_counters.h"

namespace via {

namespace {

// Empties the selected queue; true if it had overflowed since last looked at.
bool drain_selected_queue(void (*file)(const Doorbell&)) {
  const uint32_t status = doorbell_status();
  const bool overflowed = (status & LANAI_DB_STATUS_OVERFLOW) != 0u;
  if (overflowed)
    doorbell_clear_overflow();
  if ((status & LANAI_DB_STATUS_COUNT_MASK) != 0u) {
    Doorbell doorbell;
    while (doorbell_pop(doorbell)) {
      // VI numbers come from the host: one naming no VI indexes nothing.
      if (!vi_valid(doorbell.vi)) {
        count(via_bad_doorbells);
        continue;
      }
      file(doorbell);
    }
  }
  return overflowed;
}

} // namespace

void drain_doorbell_queues(uint32_t events, bool per_vi, void (*file)(const Doorbell&)) {
  bool overflowed = false;
  if (per_vi) {
    // Only VIs the driver has created can have doorbells to take.
    for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
      if (vi_config(vi).state == VIA_VI_FREE)
        continue;
      doorbell_select(vi);
      if (drain_selected_queue(file))
        overflowed = true;
    }
  } else {
    overflowed = drain_selected_queue(file);
  }
  // An overflow the queues did not show (none selected) is still cleared,
  // or it would bring the main loop back here forever.
  if (!overflowed && (events & LANAI_EV_DOORBELL_OVERFLOW) != 0u) {
    doorbell_clear_overflow();
    overflowed = true;
  }
  if (overflowed) {
    // The hardware does not say whose doorbells were lost.
    count(via_doorbell_overflows);
    raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, 0xFFFFu));
  }
}

bool push_posted(const Doorbell& doorbell, DescriptorRing& ring) {
  const PostedDescriptor posted{doorbell.address_lo, doorbell.address_hi, doorbell.handle,
                                doorbell.epoch};
  if (ring.push(posted))
    return true;
  // The library never posts more than a ring holds, so this descriptor is
  // lost like a dropped doorbell and reported the same way.
  count(via_ring_overflows);
  raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, doorbell.vi));
  return false;
}

bool pop_current(uint32_t vi, DescriptorRing& ring, PostedDescriptor& posted) {
  const uint32_t epoch = vi_config(vi).epoch;
  while (ring.pop(posted)) {
    if (posted.epoch == epoch)
      return true;
    count(via_stale_descriptors);
  }
  return false;
}

bool next_round_robin(ReadyList& ready, DescriptorRing& (*send_ring)(uint32_t vi), uint32_t& vi,
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
