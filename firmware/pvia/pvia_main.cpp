// PVIA's start-up and main loop. Once the host driver has filled the
// configuration block it visits each device in turn, forever: the doorbell
// FIFO, host DMA completions, the network send DMA and the network receive
// DMA; each visit advances the messages its events concern and moves on.
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
    poll_host_dma();
    poll_network_send();
    poll_arrivals();
    start_sends();
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
