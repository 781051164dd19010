// The rare paths of draining doorbells (see doorbells.h): overflows,
// doorbells naming no VI, full rings; and popping a ring past the entries
// the host has flushed.
#include "common/doorbells.h"

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/flow_control.h"
#include "common/via_counters.h"

namespace via {

uint32_t next_doorbell_vi;

void report_doorbell_overflow(uint32_t events, const DoorbellDrain& how) {
  bool overflowed = false;
  if (how.per_vi) {
    for (uint32_t vi = 0u; vi < VIA_MAX_VI; ++vi) {
      if (vi_config(vi).state == VIA_VI_FREE)
        continue;
      doorbell_select(vi);
      if ((doorbell_status() & LANAI_DB_STATUS_OVERFLOW) != 0u) {
        doorbell_clear_overflow();
        overflowed = true;
      }
    }
  } else if ((doorbell_status() & LANAI_DB_STATUS_OVERFLOW) != 0u) {
    doorbell_clear_overflow();
    overflowed = true;
  }
  // An overflow the queues did not show (none selected) is still cleared,
  // or it would bring the main loop back here forever.
  if (!overflowed && (events & LANAI_EV_DOORBELL_OVERFLOW) != 0u)
    doorbell_clear_overflow();
  // The hardware does not say whose doorbells were lost.
  count(via_doorbell_overflows);
  raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, 0xFFFFu));
}

Doorbell doorbell_latched() {
  Doorbell doorbell;
  read_latched_doorbell(doorbell, true);
  return doorbell;
}

void count_bad_doorbell() {
  if (!flow::take_doorbell(doorbell_latched()))
    count(via_bad_doorbells);
}

// The library never posts more than a ring holds, so a descriptor that
// finds its ring full is lost like a dropped doorbell and reported the
// same way.
void report_ring_overflow(uint32_t vi) {
  count(via_ring_overflows);
  raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, vi));
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

} // namespace via
