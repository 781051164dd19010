// Late acknowledgements of Reliable Delivery messages. Their sender has
// already completed them and keeps only their packets (pvia_send_kept.h),
// so no one waits for each acknowledgement: the receiving card owes one per
// VI, cumulative, and sends it once the first message it covers has waited
// a quarter of the retransmission timeout, or at once when a message asks
// (VIA_PACKET_F_ACK_NOW, as a sender whose buffers fill up, or one sending
// again, does). A ping-pong thus pays for an acknowledgement about once per
// quarter timeout rather than once per message.
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/sram_placement.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_recv_record.h"

namespace pvia {

namespace {

// The VIs that owe an acknowledgement, in a list (each VI's place + 1 in
// owed_index; 0: owes none), with the cycle each became owed and its peer
// as the packet header names it (src_node, src_vi).
VIA_ZEROED_AT_LOAD uint8_t owed_vis[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD uint8_t owed_index[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD uint32_t owed_since[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD via_packet_header owed_to[VIA_MAX_VI]{};
VIA_ZEROED_AT_LOAD uint32_t owed_count{};
static_assert(VIA_MAX_VI <= 0xFFu, "a VI's place fits a byte");

uint32_t delay() { return via::nic_config().retransmit_cycles / 2u; }

} // namespace

namespace receive_engine {

void owe_ack(uint32_t vi, uint32_t src_node, uint32_t src_vi) {
  if (owed_index[vi] != 0u)
    return;
  owed_vis[owed_count++] = static_cast<uint8_t>(vi);
  owed_index[vi] = static_cast<uint8_t>(owed_count);
  owed_since[vi] = now();
  owed_to[vi].src_node = static_cast<uint16_t>(src_node);
  owed_to[vi].src_vi = static_cast<uint16_t>(src_vi);
  wake_timer_by(owed_since[vi] + delay());
}

void ack_paid(uint32_t vi) {
  const uint32_t place = owed_index[vi];
  if (place == 0u)
    return;
  owed_index[vi] = 0u;
  const uint32_t last = owed_vis[--owed_count];
  if (last != vi) {
    owed_vis[place - 1u] = static_cast<uint8_t>(last);
    owed_index[last] = static_cast<uint8_t>(place);
  }
}

} // namespace receive_engine

bool send_owed_acks(uint32_t& due) {
  using namespace receive_engine;
  const uint32_t t = now();
  bool any = false;
  for (uint32_t i = 0u; i < owed_count;) {
    const uint32_t vi = owed_vis[i];
    const uint32_t when = owed_since[vi] + delay();
    if (static_cast<int32_t>(t - when) >= 0) {
      // Paid: the list's last VI takes its place, which is looked at next.
      if (acknowledge_again(vi, owed_to[vi], false)) {
        count(pvia_acks_delayed);
        continue;
      }
      // No acknowledgement buffer: try again soon.
      owed_since[vi] = t - delay() + delay() / 16u + 1u;
    }
    const uint32_t next = owed_since[vi] + delay();
    if (!any || static_cast<int32_t>(next - due) < 0)
      due = next;
    any = true;
    ++i;
  }
  return any;
}

} // namespace pvia
