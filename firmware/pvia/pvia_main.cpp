// PVIA's start-up and main loop. Once the host driver has filled the
// configuration block it visits the devices forever, each visit advancing
// the messages one event concerns and moving on. A device with no event and
// a part with no work of its own are passed over without a call. Every pass
// looks at the network DMAs first: neither has a queue in hardware, so a
// packet that waits for the firmware to notice an idle engine leaves the
// wire idle, and an unarmed receive DMA holds the link. A host DMA
// completion (the engine works through its own queue meanwhile) is handled
// one per pass, and the pass starts over after it; a pass without one
// starts the next gather and takes a few doorbells, a new send and a
// receive descriptor fetched ahead.
#include <lanai/register_map.h>

#include "common/nic_config.h"
#include "pvia.h"
#include "pvia_send_buffers.h"

namespace pvia {

uint32_t this_node;

namespace {

[[noreturn]] void serve_forever() {
  for (;;) {
    uint32_t events = via::event_status();
    if (nsdma_in_flight != kNoPacket ? (events & LANAI_EV_NSDMA_IDLE) != 0u
                                     : nsdma_queue_head != nsdma_queue_tail)
      poll_network_send();
    if (receive_dma_armed == kUnarmed || arrivals_head != arrivals_tail ||
        (events & LANAI_EV_NRDMA_DONE) != 0u)
      poll_arrivals();
    // Completions one at a time, each followed by another look at the
    // network DMAs.
    while (((events & LANAI_EV_HDMA_DONE) != 0u || hdma_overflow_head != hdma_overflow_tail) &&
           poll_host_dma()) {
      events = via::event_status();
      if (nsdma_in_flight != kNoPacket ? (events & LANAI_EV_NSDMA_IDLE) != 0u
                                       : nsdma_queue_head != nsdma_queue_tail)
        poll_network_send();
      if (receive_dma_armed == kUnarmed || (events & LANAI_EV_NRDMA_DONE) != 0u)
        poll_arrivals();
    }
    if (send_wanting != 0u && send_gathers < kGathersAhead && send_buffers_free())
      start_gather();
    // The countdown timer (retransmission) is as rare as an overflow.
    if ((events & (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW | LANAI_EV_TIMER)) != 0u)
      drain_doorbells(events);
    if (!ready_to_send.empty() || !sends_waiting.empty())
      start_sends();
    if (!receive_backlog.empty())
      refill_receives();
  }
}

} // namespace

} // namespace pvia

// What the driver may ask of this firmware besides sends and receives.
extern "C" const uint32_t via_firmware_features =
    VIA_FEATURE_RDMA_WRITE | VIA_FEATURE_RDMA_READ | VIA_FEATURE_FLOW_CONTROL;

// Freestanding C++ gives main no special linkage; _start calls it by its C name.
extern "C" int main() {
  via::wait_for_configuration();
  pvia::this_node = via::node_id();
  pvia::start_host_dma();
  pvia::start_network_send();
  pvia::start_acks();
  pvia::start_send_engine();
  pvia::start_receive_engine();
  pvia::start_doorbells();
  pvia::start_receiving();
  pvia::serve_forever();
}
