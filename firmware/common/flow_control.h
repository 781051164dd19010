// Credit flow control (via_abi.h: VIA_DOORBELL_FLOW, VIA_ACK_F_CREDIT),
// optional per VI. The receiving card grants a credit for every receive
// posted on a flow-controlled VI; the sending card holds each send that
// would take a receive at the peer until it has a credit for it, so that
// a sender that runs ahead of its receiver waits instead of overrunning it.
//
// Everything here is on the firmware's rare path: a flow-controlled VI's
// doorbells name no VI as the common path reads them (VIA_DOORBELL_FLOW),
// and reach it through count_bad_doorbell(). A firmware that takes part
// defines via_flow_hooks: its own filing of a doorbell, its way of sending
// a header-only acknowledgement, and its timer; the held sends go on through that filing in
// posting order, with the cycle their doorbell reached the card, so a
// stamp-ordering scheduler orders them as if they had just been posted
// then, and its stamps order whatever traffic has credits.
//
// Per VI, while its epoch lasts (a flush starts the counts again):
//   receiving side: `posted`, the receives posted, sent to the peer as a
//   credit at each post and on request;
//   sending side: `limit`, the peer's latest credit, and `sent`, the
//   credit-taking sends passed on; a send waits while sent == limit, and
//   so does every later send of its VI (the send queue keeps its order).
// A sender that starts waiting asks its peer for a credit
// (VIA_ACK_F_CREDIT_REQUEST): the receives may have been posted before the
// connection existed, when no credit could go. It asks again each
// retransmission timeout while it waits with no credit coming, since the
// fabric may lose a credit; a later credit stands for every earlier one.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/ack_packet.h"
#include "common/devices.h"

namespace via::flow {

struct Hooks {
  // Files a doorbell (its VI field without the flow bits) as the common
  // path would have: a send that may go now, or a receive.
  void (*file)(const Doorbell& doorbell);
  // Queues a header-only acknowledgement, or merges a credit into one of
  // its VI not yet sent; false if neither can be done now (the credit is
  // then not sent: the waiting sender's next request brings it).
  bool (*send_ack)(const Ack& ack);
  // Brings the countdown timer round no later than `cycle` (LANai cycle
  // counter, low word); the firmware then calls timer().
  void (*wake_at)(uint32_t cycle);
};

} // namespace via::flow

// A firmware that takes part defines its hooks under this name (constant
// data: nothing runs at start-up for it); without them every
// flow-controlled doorbell counts as naming no VI.
extern "C" const via::flow::Hooks via_flow_hooks;

namespace via::flow {

bool started();

// A doorbell whose VI field names no VI: true if it was a flow-controlled
// VI's (taken), false if it names none at all (the caller counts it).
bool take_doorbell(const Doorbell& doorbell);

// An acknowledgement with VIA_ACK_F_CREDIT or VIA_ACK_F_CREDIT_REQUEST
// arrived for this card's VI `header.dst_vi`.
void credit_arrived(const via_packet_header& header);
inline bool is_credit(const via_packet_header& header) {
  return (header.flags & (VIA_ACK_F_CREDIT | VIA_ACK_F_CREDIT_REQUEST)) != 0u;
}

// The countdown timer fired: waiting senders whose request is due ask
// again, and the timer is brought round for the next.
void timer();

} // namespace via::flow
