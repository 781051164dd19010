// PVIA's start-up and main loop. Once the host driver has filled the
// configuration block it visits each device in turn, forever: the doorbell
// FIFO, host DMA completions, the network send DMA and the network receive
// DMA; each visit advances the messages its events concern and moves on. A
// device with no event and a part with no work of its own are passed over
// without a call.
#include <lanai/register_map.h>

#include "common/nic_config.h"
#include "pvia.h"

namespace pvia {

uint32_t this_node;

namespace {

[[noreturn]] void serve_forever() {
  for (;;) {
    const uint32_t events = via::event_status();
    if ((events & (LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW)) != 0u)
      drain_doorbells(events);
    if ((events & LANAI_EV_HDMA_DONE) != 0u || hdma_overflow_head != hdma_overflow_tail)
      poll_host_dma();
    // The network DMAs as they are now, not as at the top of the pass: a
    // packet that left or arrived meanwhile is served in this pass, which
    // keeps the wire busy when passes are long.
    if (nsdma_in_flight != kNoPacket ? !via::nsdma_busy() : nsdma_queue_head != nsdma_queue_tail)
      poll_network_send();
    if (receive_dma_armed == kUnarmed || arrivals_head != arrivals_tail ||
        (via::event_status() & LANAI_EV_NRDMA_DONE) != 0u)
      poll_arrivals();
    if (!ready_to_send.empty() || !sends_waiting.empty())
      start_sends();
    if (!receive_backlog.empty())
      refill_receives();
  }
}

} // namespace

} // namespace pvia

// Freestanding C++ gives main no special linkage; _start calls it by its C name.
extern "C" int main() {
  via::wait_for_configuration();
  pvia::this_node = via::node_id();
  pvia::start_host_dma();
  pvia::start_network_send();
  pvia::start_send_engine();
  pvia::start_receive_engine();
  pvia::start_doorbells();
  pvia::start_receiving();
  pvia::serve_forever();
}
