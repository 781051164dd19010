// Reliable Delivery messages kept on the card until acknowledged. Such a
// send completes as soon as its packet has left, as on a card without
// retransmission: from then on the host may reuse its buffer, so the
// packet stays in its send buffer, numbered and framed, until the receiving
// card acknowledges it (or a later message), and the resend lane sends it
// again from there if it is lost (pvia_resend.cpp). Receivers acknowledge
// these messages late and many at once; while the card holds many kept
// packets, or few buffers are free, a VI's next packet asks for its
// acknowledgement at once (VIA_PACKET_F_ACK_NOW), once until one comes.
//
// Keeping costs the packet's departure a few stores: the packet stays
// framed in its buffer, each VI's kept packets are a list in the order they
// left, and the retransmission timeout runs per VI, from its oldest kept
// packet's (last) departure.
// A VI's first message of a new connection lets go of what the connection
// before kept.
//
// Only a message that leaves as one packet is kept: a message cut into
// fragments could hold more buffers than the pool has before its receiver
// could acknowledge it, so it completes on its acknowledgement instead and
// goes again from host memory, as a Reliable Reception message does.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/packet.h"
#include "pvia.h"
#include "pvia_send_buffers.h"

namespace pvia {

// Each send buffer's kept packet: its VI + 1 (0: none), the VI's next
// kept packet (buffer + 1; 0: none), its number and the cycle it last left.
extern uint8_t kept_vi[kSendBuffers];
extern uint8_t kept_next[kSendBuffers];
extern uint32_t kept_sequence_of[kSendBuffers];
extern uint32_t kept_sent_at[kSendBuffers];
// Per VI: its oldest and newest kept packets (buffer + 1; 0: none), and
// how many it keeps. Its timeout runs from its oldest's departure.
extern uint8_t kept_head[VIA_MAX_VI];
extern uint8_t kept_tail[VIA_MAX_VI];
extern uint8_t kept_of_vi[VIA_MAX_VI];
inline uint32_t kept_since(uint32_t vi) { return kept_sent_at[kept_head[vi] - 1u]; }
// Buffers held by kept packets.
extern uint32_t kept_count;
// The VIs with kept packets, in a list.
extern uint8_t keeping_vis[VIA_MAX_VI];
extern uint32_t keeping_count;
// The buffer + 1 of the kept packet the resend lane is sending (0: none),
// and whether it was acknowledged meanwhile.
extern uint32_t kept_in_lane;
extern bool kept_in_lane_acked;

// While the card holds this many kept packets, or has fewer buffers free,
// VIs ask for their acknowledgements.
constexpr uint32_t kAskKept = 8u;
constexpr uint32_t kAskFree = 3u;
inline bool may_ask() { return kept_count >= kAskKept || send_buffers_unused_count < kAskFree; }
// The packet about to leave from `buffer` on `vi` asks for its
// acknowledgement, if it is a Reliable Delivery one and the VI has not
// asked since its last acknowledgement (only while may_ask()).
void ask_for_ack(uint32_t vi, via::SendBuffer& buffer);

// The VI's first kept packet since it had none, sent in `epoch`: the
// timer comes round for it.
void start_keeping(uint32_t vi, uint32_t epoch);
// The epoch each VI's kept packets were sent in: a flush since makes them
// stale.
extern uint32_t kept_epoch[VIA_MAX_VI];

// A packet framed for a Reliable Delivery VI has just left from `buffer`:
// if it is a whole message numbered `sequence` that its sender does not
// wait for (`whole`), sent on `vi` in `epoch`, the buffer is kept and true
// is returned.
[[gnu::always_inline]] inline bool keep_packet(bool whole, uint32_t buffer, uint32_t vi,
                                               uint32_t sequence, const uint32_t& epoch) {
  if (!whole)
    return false;
  const uint32_t k = buffer + 1u;
  kept_vi[buffer] = static_cast<uint8_t>(vi + 1u);
  kept_next[buffer] = 0u;
  kept_sequence_of[buffer] = sequence;
  kept_sent_at[buffer] = now();
  if (kept_of_vi[vi]++ == 0u) {
    kept_head[vi] = static_cast<uint8_t>(k);
    start_keeping(vi, epoch);
  } else {
    kept_next[kept_tail[vi] - 1u] = static_cast<uint8_t>(k);
  }
  kept_tail[vi] = static_cast<uint8_t>(k);
  ++kept_count;
  return true;
}

// An acknowledgement from `peer` for `vi` up to `sequence` (`exact`: that
// message alone): the kept packets it covers let go of their buffers (one
// from another peer covers none). The number of packets it covered.
uint32_t release_kept(uint32_t vi, uint32_t peer, uint32_t sequence, bool exact);
// The number of kept packet b.
inline uint32_t kept_sequence(uint32_t b) { return kept_sequence_of[b]; }
// Lets go of every kept packet of `vi` (but the one the resend lane has,
// marked acknowledged instead).
void let_go_kept_of(uint32_t vi);
// Lets go of the kept packet the resend lane had, if it was acknowledged
// meanwhile.
void let_go_lane_kept();
// The VI's kept packets are of a connection the host has since flushed:
// they are let go of (true).
bool kept_stale(uint32_t vi);
// Kept packet b framed again for the wire (its header is as it left).
via::OutgoingPacket reframe_kept(uint32_t b);

} // namespace pvia
