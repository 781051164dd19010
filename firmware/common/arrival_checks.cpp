// The checks every firmware makes on an arrived packet (see
// arrival_checks.h), and the per-VI sequence numbers they keep.
#include "common/arrival_checks.h"

#include <lanai/via_abi.h>

#include "common/devices.h"
#include "common/vi_table.h"
#include "common/via_counters.h"

namespace via {

namespace {

uint32_t expected_sequence[VIA_MAX_VI];

} // namespace

PacketCheck check_packet(const ReceiveBuffer& buffer, uint32_t payload_bytes, uint32_t source,
                         uint32_t damage) {
  if (damage != 0u)
    return PacketCheck::damaged;
  PacketCheck kind = PacketCheck::data;
  if (!packet_well_formed(buffer, payload_bytes)) {
    if (!ack_well_formed(buffer, payload_bytes))
      return PacketCheck::damaged;
    kind = PacketCheck::ack;
  }
  // The network stamps the true sender; a header naming another is not
  // to be trusted with a VI's data (nor with settling its sends).
  return buffer.header.src_node == source ? kind : PacketCheck::damaged;
}

// One path and one receive DMA keep a VI's packets in order, so a gap means
// a message was lost before this card took it (or the peer VI restarted).
void note_sequence(uint32_t vi, uint32_t sequence) {
  if (sequence != expected_sequence[vi])
    count(via_sequence_gaps);
  expected_sequence[vi] = sequence + 1u;
}

void no_receive_posted(uint32_t vi) {
  if (!vi_reliable(vi)) {
    count(via_unreliable_drops);
    return;
  }
  // Reliable levels promise every message or a broken connection.
  count(via_recvq_empty_errors);
  vi_break(vi);
  raise_host_interrupt(VIA_INTR_WORD(VIA_INTR_RECVQ_EMPTY, vi));
}

} // namespace via
