// Acknowledgements (VIA_PACKET_ACK in via_abi.h): the packet a card sends
// back once the Reliable Reception messages it received are settled, how
// it is framed, and the outcome it reports for a receive's errors.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/packet.h"

namespace via {

// An acknowledgement as it leaves: the route in front of the header, which
// is the whole packet.
struct alignas(8) AckBuffer {
  uint8_t route[VIA_MAX_ROUTE];
  via_packet_header header;
};
static_assert(offsetof(AckBuffer, header) == VIA_MAX_ROUTE, "route abuts the header");

// What an acknowledgement says: whose messages (`node`, `vi`: the VI that
// sent them), from which VI, up to which sequence number, with what
// outcome for that one, VIA_ACK_F_* flags, and the outcomes of the
// messages before it (VIA_ACK_OUTCOME_* codes, the header's `offset`).
struct Ack {
  uint32_t node;
  uint32_t vi;
  uint32_t from_vi;
  uint32_t sequence;
  uint32_t status;
  uint32_t flags;
  uint32_t outcomes;
};

// Writes the acknowledgement's header, and its route in front; false if
// `ack.node` cannot be reached.
inline bool frame_ack(AckBuffer& buffer, uint32_t this_node, const Ack& ack, OutgoingPacket& out) {
  const Route route = route_to(ack.node);
  if (route.length == 0u)
    return false;
  via_packet_header& header = buffer.header;
  header.kind = VIA_PACKET_ACK;
  header.src_node = static_cast<uint16_t>(this_node);
  header.src_vi = static_cast<uint16_t>(ack.from_vi);
  header.dst_vi = static_cast<uint16_t>(ack.vi);
  header.flags = static_cast<uint16_t>(ack.flags);
  header.length = 0u;
  header.immediate = ack.status;
  header.sequence = ack.sequence;
  header.offset = ack.outcomes;
  header.message = 0u;
  uint8_t* start = buffer.route + (VIA_MAX_ROUTE - route.length);
  for (uint32_t i = 0u; i < route.length; ++i)
    start[i] = route.bytes[i];
  out = {start, route.length + kPacketHeaderBytes, route.length};
  return true;
}

// The outcome a Reliable Reception sender learns of a message the
// receiving card settled with `errors` (its receive's VIP_STATUS_* bits):
// a refused RDMA write and a message broken on the way are the sender's
// own kind of error; anything wrong with the receive descriptor (format,
// length, protection of its buffers, none posted) is a remote descriptor
// error.
inline uint32_t sender_status(uint32_t errors) {
  constexpr uint32_t kPassed = VIP_STATUS_RDMA_PROT_ERROR | VIP_STATUS_TRANSPORT_ERROR;
  if (errors == 0u || (errors & kPassed) != 0u)
    return errors & kPassed;
  return VIP_STATUS_REMOTE_DESC_ERROR;
}

// A sender's status (sender_status()) as a two-bit outcome code, and back.
inline uint32_t outcome_code(uint32_t status) {
  if (status == 0u)
    return VIA_ACK_OUTCOME_OK;
  if ((status & VIP_STATUS_TRANSPORT_ERROR) != 0u)
    return VIA_ACK_OUTCOME_TRANSPORT;
  if ((status & VIP_STATUS_RDMA_PROT_ERROR) != 0u)
    return VIA_ACK_OUTCOME_RDMA_PROT;
  return VIA_ACK_OUTCOME_REMOTE_DESC;
}
inline uint32_t outcome_status(uint32_t code) {
  switch (code & 3u) {
  case VIA_ACK_OUTCOME_REMOTE_DESC:
    return VIP_STATUS_REMOTE_DESC_ERROR;
  case VIA_ACK_OUTCOME_RDMA_PROT:
    return VIP_STATUS_RDMA_PROT_ERROR;
  case VIA_ACK_OUTCOME_TRANSPORT:
    return VIP_STATUS_TRANSPORT_ERROR;
  default:
    return 0u;
  }
}
// What a cumulative acknowledgement of message `acked` with `outcomes`
// says of message `sequence` (at most `acked`): 0 if it succeeded, or
// further back than the outcomes reach.
inline uint32_t acked_status(uint32_t acked, uint32_t outcomes, uint32_t sequence) {
  const uint32_t back = acked - sequence;
  return back < VIA_ACK_OUTCOMES ? outcome_status(outcomes >> (2u * back)) : 0u;
}

// Sequence numbers wrap: true if `a` is `b` or comes before it.
inline bool sequence_at_most(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) <= 0; }

} // namespace via
