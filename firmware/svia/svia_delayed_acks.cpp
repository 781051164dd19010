// Reliable Delivery's acknowledgements, delayed: they only let the sending
// card free the packets it keeps for resending, so they need not leave at
// once. A VI's wait until its sender asks (VIA_PACKET_F_ACK_NOW: its send
// window is filling, or it is resending), or the first message waiting has
// waited a quarter of the retransmission timeout (a card busy sending
// notices its timer only between packets, so the margin is wide), and then
// go as one cumulative acknowledgement per VI: without faults a ping-pong
// pays for one about once per quarter timeout.
// A VI flushed since its messages were taken (a new connection) owes its
// old peer nothing: numbered in the old connection, the acknowledgement
// would settle the new one's packets before they arrive.
#include <lanai/register_map.h>
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/vi_table.h"
#include "svia.h"

namespace svia {

namespace {

uint32_t waiting[VIA_MAX_VI];    // messages taken and not yet acknowledged
uint32_t last_taken[VIA_MAX_VI]; // the newest of them
uint32_t peer_of[VIA_MAX_VI];    // (node << 16) | VI that sent them
uint32_t epoch_of[VIA_MAX_VI];   // the VI's epoch when they were taken
uint32_t waiting_vis;            // VIs with messages waiting
uint32_t due;                    // cycle the acknowledgements go by

void queue(uint32_t vi) {
  if (epoch_of[vi] == via::vi_config(vi).epoch)
    send_ack({peer_of[vi] >> 16, peer_of[vi] & 0xFFFFu, vi, last_taken[vi], 0u, 0u, 0u});
  waiting[vi] = 0u;
  --waiting_vis;
}

void queue_all() {
  for (uint32_t vi = 0u; vi < VIA_MAX_VI && waiting_vis != 0u && ack_room(); ++vi)
    if (waiting[vi] != 0u)
      queue(vi);
}

} // namespace

void delay_ack(uint32_t vi, const via_packet_header& header) {
  const uint32_t epoch = via::vi_config(vi).epoch;
  if (waiting[vi] != 0u && epoch_of[vi] != epoch)
    settle_delayed(vi);
  if (waiting[vi] == 0u && waiting_vis++ == 0u) {
    due = cycle_now() + via::nic_config().retransmit_cycles / 4u;
    set_deadline(Deadline::ack, due);
  }
  last_taken[vi] = header.sequence;
  peer_of[vi] = uint32_t{header.src_node} << 16 | header.src_vi;
  epoch_of[vi] = epoch;
  ++waiting[vi];
  if ((header.flags & VIA_PACKET_F_ACK_NOW) != 0u)
    queue_all();
  if (waiting_vis == 0u)
    clear_deadline(Deadline::ack);
}

void settle_delayed(uint32_t vi) {
  if (waiting[vi] != 0u) {
    waiting[vi] = 0u;
    --waiting_vis;
  }
}

void send_delayed_acks() {
  if (waiting_vis == 0u)
    return;
  if (static_cast<int32_t>(cycle_now() - due) < 0) {
    set_deadline(Deadline::ack, due);
    return;
  }
  queue_all();
  // Those the queue had no room for go at the next wake.
  if (waiting_vis != 0u) {
    due = cycle_now() + via::nic_config().retransmit_cycles / 8u;
    set_deadline(Deadline::ack, due);
  }
}

} // namespace svia
