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
// A message arrived before any receive was posted for it: dropped on an
// unreliable VI, breaks a reliable one.
void no_receive_posted(uint32_t vi);

} // namespace via
