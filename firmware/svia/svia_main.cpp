// SVIA's start-up and main loop. It waits for the host driver to fill the
// configuration block, then forever: takes in doorbells, delivers a packet
// that has arrived, or else carries out the next send. A device with no
// event and a queue with no work are passed over without a call.
#include <lanai/register_map.h>

#include "common/nic_config.h"
#include "svia.h"

namespace svia {

uint32_t this_node;

namespace {

[[noreturn]] void serve_forever() {
  for (;;) {
    // A send whose descriptor is on its way (queued right behind the last
    // send's completion) goes first.
    uint32_t vi;
    via::PostedDescriptor posted;
    if (next_fetch != 0u) {
      const uint32_t fetch = next_fetch;
      next_fetch = 0u;
      (void)next_send(vi, posted);
      send_message(vi, posted, fetch);
      via::trace_state(nullptr);
      continue;
    }
    const uint32_t events = via::event_status();
    if ((events & (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW)) != 0u)
      drain_doorbells(events);
    if (receive_dma_armed == kNoBuffer || (events & LANAI_EV_NRDMA_DONE) != 0u)
      poll_arrivals();
    // Arrivals first: the network holds back whatever follows a packet
    // that waits here.
    if (arrival_filled != kNoBuffer) {
      deliver_arrival(*pending_arrival());
      release_arrival();
      via::trace_state(nullptr);
      continue;
    }
    if ((next_chosen || !ready_to_send.empty()) && next_send(vi, posted)) {
      send_message(vi, posted);
      via::trace_state(nullptr);
    } else {
      collect_completions();
    }
  }
}

} // namespace

} // namespace svia

// Freestanding C++ gives main no special linkage; _start calls it by its C name.
extern "C" int main() {
  via::wait_for_configuration();
  svia::this_node = via::node_id();
  svia::start_doorbells();
  svia::start_receiving();
  svia::serve_forever();
}
