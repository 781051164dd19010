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
    // that waits here. Delivering one may queue an acknowledgement (it
    // waits for room to), which leaves at once if the network send DMA is
    // idle, or from a later pass that finds it so.
    if (arrival_filled != kNoBuffer) {
      if (deliver_arrival(*pending_arrival()))
        release_arrival();
      via::trace_state(nullptr);
      continue;
    }
    // A packet to resend or acknowledgements to send, judged once every
    // packet that has come in is taken: an acknowledgement waiting in the
    // receive DMA settles packets a timeout would otherwise send again.
    if ((events & LANAI_EV_TIMER) != 0u)
      deadline_reached();
    // A VI going back resends before anything new is sent on it or others
    // (its receiver would drop what follows a gap anyway).
    if (resending()) {
      resend_next();
      collect_completions();
      continue;
    }
    // A send may have to hold its completion (Reliable Reception), and a
    // reliable VI's packet stays in the send window until acknowledged:
    // with no room for either, sends wait for acknowledgements (or resends).
    if ((next_chosen || !ready_to_send.empty()) && send_room() && next_send(vi, posted)) {
      send_message(vi, posted);
      via::trace_state(nullptr);
    } else {
      // Also starts an acknowledgement that waits.
      collect_completions();
    }
  }
}

} // namespace

} // namespace svia

// What the driver may ask of this firmware besides sends and receives.
extern "C" const uint32_t via_firmware_features = VIA_FEATURE_RDMA_WRITE | VIA_FEATURE_FLOW_CONTROL;

// Freestanding C++ gives main no special linkage; _start calls it by its C name.
extern "C" int main() {
  via::wait_for_configuration();
  svia::this_node = via::node_id();
  svia::start_doorbells();
  svia::start_receiving();
  svia::start_answers();
  svia::start_window();
  svia::serve_forever();
}
