// The work the host has posted: doorbells drained from the card's doorbell
// queues into per-VI send and receive rings, and the round-robin choice of
// which VI's send goes next (the mechanics are common/doorbells.h).
#include <lanai/register_map.h>

#include "common/devices.h"
#include "common/doorbells.h"
#include "common/flow_control.h"
#include "common/sram_placement.h"
#include "svia.h"

namespace svia {

via::ReadyList ready_to_send;

namespace {

struct ViQueues {
  via::DescriptorRing send;
  via::DescriptorRing receive;
};

VIA_ZEROED_AT_LOAD ViQueues queues[VIA_MAX_VI]{};
bool per_vi_doorbells;

// Inlined into the drains as it always was, whoever else files doorbells.
[[gnu::always_inline]] inline void accept(const via::Doorbell& doorbell) {
  ViQueues& vi = queues[doorbell.vi];
  via::DescriptorRing& ring = doorbell.receive ? vi.receive : vi.send;
  const bool was_empty = ring.empty();
  if (via::push_posted(doorbell, ring) && !doorbell.receive && was_empty)
    ready_to_send.push(doorbell.vi);
}

via::DescriptorRing& send_ring(uint32_t vi) { return queues[vi].send; }

// Flow control's way in (common/flow_control.h): a doorbell of a
// flow-controlled VI, filed when it may go.
[[gnu::noinline]] void file_flow_doorbell(const via::Doorbell& doorbell) { accept(doorbell); }

} // namespace

} // namespace svia

extern "C" constinit const via::flow::Hooks via_flow_hooks{
    &svia::file_flow_doorbell, &svia::send_credit, &svia::wake_timer_by};

namespace svia {

void start_doorbells() { per_vi_doorbells = via::doorbells_per_vi(); }

void drain_doorbells(uint32_t events) {
  via::drain_doorbell_queues(events, {per_vi_doorbells, false, 0u},
                             [](const via::Doorbell& doorbell) { accept(doorbell); });
}

void take_doorbell(uint32_t events) {
  via::drain_doorbell_queues(events, {per_vi_doorbells, false, 1u},
                             [](const via::Doorbell& doorbell) { accept(doorbell); });
}

bool next_chosen;

namespace {

uint32_t chosen_vi;
via::PostedDescriptor chosen;

} // namespace

bool next_send(uint32_t& vi, via::PostedDescriptor& posted) {
  if (next_chosen) {
    next_chosen = false;
    vi = chosen_vi;
    posted = chosen;
    return true;
  }
  return via::next_round_robin(ready_to_send, send_ring, vi, posted);
}

bool chosen_send(uint32_t& vi, via::PostedDescriptor& posted) {
  vi = chosen_vi;
  posted = chosen;
  return next_chosen;
}

void choose_next_send() {
  // The chosen send will be started at once: it needs room to hold its
  // completion besides the one of the send that chooses it, and room in
  // the send window behind it (kept already if it is to be). Not when the
  // timer has fired or a VI goes back: the main loop sees to those first.
  if (!next_chosen && !ready_to_send.empty() && held_room() >= 2u && window_at != kNoBuffer &&
      (via::event_status() & LANAI_EV_TIMER) == 0u && !resending())
    next_chosen = via::next_round_robin(ready_to_send, send_ring, chosen_vi, chosen);
}

bool next_receive(uint32_t vi, via::PostedDescriptor& posted) {
  return via::pop_current(vi, queues[vi].receive, posted);
}

} // namespace svia
