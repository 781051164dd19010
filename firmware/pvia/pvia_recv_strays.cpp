// The receive engine's packets that are no message for one of this card's
// receives: an acknowledgement, handed to the send engine; a damaged one;
// and one for a VI that does not take it from its sender. Out of line, off
// the path of the messages the engine delivers.
#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/arrival_checks.h"
#include "common/scheduler.h"
#include "common/vi_table.h"
#include "pvia.h"
#include "pvia_counters.h"
#include "pvia_recv_record.h"

namespace pvia {

namespace receive_engine {

// A packet for a VI that does not take it from its sender: dropped. A
// Reliable Reception sender, or an RDMA read's initiator, hears that its
// message went nowhere; false if that cannot be sent now.
bool take_unmatched(const Arrival& arrival) {
  const via_packet_header& header = arrival.buffer->header;
  if (header.offset == 0u && via::vi_valid(header.dst_vi) &&
      (header.flags & (kAnswered | VIA_PACKET_F_RDMA_READ)) != 0u) {
    const via::Ack refusal{header.src_node,
                           header.src_vi,
                           header.dst_vi,
                           header.sequence,
                           VIP_STATUS_TRANSPORT_ERROR,
                           VIA_ACK_F_EXACT,
                           0u};
    if (!send_ack(refusal, via::stamp_now())) {
      count(pvia_arrival_stalls);
      return false;
    }
  }
  count(pvia_unmatched_packets);
  release_arrival(arrival.index);
  return true;
}

// A packet that carries no message: an acknowledgement, handed to the
// send engine, or a damaged one, dropped and counted, not reported (its
// header cannot be trusted to name a VI, and a VI may lose a message only
// where its reliability level lets it).
void take_other(const Arrival& arrival, via::PacketCheck checked) {
  if (checked == via::PacketCheck::ack)
    ack_arrived(arrival.buffer->header);
  else
    count(pvia_bad_packets);
  release_arrival(arrival.index);
}

} // namespace receive_engine

} // namespace pvia
