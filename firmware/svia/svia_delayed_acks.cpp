// Reliable Delivery's acknowledgements, delayed: they only let the sending
// card free the packets it keeps for resending, so they need not leave at
// once. They wait until kAckEvery messages (of any VIs) want one, or the first
// has waited a quarter of the retransmission timeout, and go as one
// cumulative acknowledgement: without faults a ping-pong pays for one
// acknowledgement in kAckEvery round trips (a stream of messages may fill
// its sender's window, kWindow, and wait a round trip for it).
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/vi_table.h"
#include "svia.h"

namespace svia {

namespace {

uint32_t waiting[VIA_MAX_VI];   // messages taken and not yet acknowledged
uint32_t last_taken[VIA_MAX_VI]; // the newest of them
uint32_t peer_of[VIA_MAX_VI];    // (node << 16) | VI that sent them
uint32_t waiting_vis;            // VIs with messages waiting
uint32_t messages_waiting;       // messages waiting, all VIs together
uint32_t first_since;            // cycle the oldest waiting one was taken (roughly)

uint32_t now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

void queue(uint32_t vi) {
  send_ack({peer_of[vi] >> 16, peer_of[vi] & 0xFFFFu, vi, last_taken[vi], 0u, 0u});
  waiting[vi] = 0u;
  --waiting_vis;
}

void queue_all() {
  for (uint32_t vi = 0u; vi < VIA_MAX_VI && waiting_vis != 0u && ack_room(); ++vi)
    if (waiting[vi] != 0u)
      queue(vi);
  messages_waiting = 0u;
}

} // namespace

void delay_ack(uint32_t vi, const via_packet_header& header) {
  if (waiting[vi] == 0u) {
    if (waiting_vis++ == 0u)
      first_since = now();
  }
  last_taken[vi] = header.sequence;
  peer_of[vi] = uint32_t{header.src_node} << 16 | header.src_vi;
  ++waiting[vi];
  // Counted over all VIs: many VIs with a message each fill a sender's
  // window as surely as one VI with many.
  if (++messages_waiting >= kAckEvery)
    queue_all();
}

void settle_delayed(uint32_t vi) {
  if (waiting[vi] != 0u) {
    waiting[vi] = 0u;
    --waiting_vis;
  }
}

void send_delayed_acks() {
  if (waiting_vis == 0u || now() - first_since < via::nic_config().retransmit_cycles / 4u)
    return;
  queue_all();
  first_since = now();
}

} // namespace svia
