// Checks on a packet taken off the network before it may touch a VI: is it
// intact and from whom it claims, is it numbered as its VI expected, and
// what happens when no receive is posted for it.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include "common/packet.h"

namespace via {

// What a packet taken off the network is: a data packet or an
// acknowledgement, intact, or damaged (`damage` holds the receive DMA's
// BAD_CRC / TRUNCATED bits), malformed, or claiming another sender than
// the `source` node the network reports. A data packet is told apart with
// no more work than before acknowledgements existed.
enum class PacketCheck : uint8_t { damaged, data, ack };
PacketCheck check_packet(const ReceiveBuffer& buffer, uint32_t payload_bytes, uint32_t source,
                         uint32_t damage);
// Counts a gap if `sequence` is not the next one expected on `vi`.
void note_sequence(uint32_t vi, uint32_t sequence);

// Taking a VI's messages strictly in sequence, for firmware whose senders
// retransmit (VIA_PACKET_F_RELIABLE). A VI's numbers start again from 0
// whenever the host flushes it (a new epoch: a new connection).
enum class InSequence : uint8_t {
  next,      // the message expected: take it, then take_sequence()
  duplicate, // taken before (a retransmission): drop it, acknowledge again
  ahead,     // past a gap (one before it was lost): drop it, the sender goes back
};
InSequence judge_sequence(uint32_t vi, uint32_t sequence);
void take_sequence(uint32_t vi, uint32_t sequence);
// The number of the message taken last on `vi` (all ones: none yet).
uint32_t last_sequence(uint32_t vi);
// An unreliable VI's message may be lost but never taken twice or out of
// order: false (and counted) for one numbered before the next expected,
// which is dropped; otherwise it is taken and a gap counted.
bool take_unreliable(uint32_t vi, uint32_t sequence);
// A message arrived before any receive was posted for it: dropped on an
// unreliable VI, breaks a reliable one.
void no_receive_posted(uint32_t vi);

} // namespace via
