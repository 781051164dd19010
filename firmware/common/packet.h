// The VIA data packet: the source route the switches consume, then the
// header (via_packet_header, LANai byte order), then the message. Buffers
// keep the header word-aligned; a send buffer puts the route bytes right in
// front of it, so the packet is contiguous whatever the route's length.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/nic_config.h"

namespace via {

constexpr uint32_t kPacketHeaderBytes = sizeof(via_packet_header);
// The header and the largest message: what a receive buffer must hold.
constexpr uint32_t kMaxPacketPayload = kPacketHeaderBytes + VIA_MAX_TRANSFER;

struct alignas(8) SendBuffer {
  uint8_t route[VIA_MAX_ROUTE]; // the route's bytes end where the header starts
  via_packet_header header;
  uint8_t data[VIA_MAX_TRANSFER];
};
static_assert(offsetof(SendBuffer, header) == VIA_MAX_ROUTE, "route abuts the header");
static_assert(offsetof(SendBuffer, data) == VIA_MAX_ROUTE + kPacketHeaderBytes,
              "data follows the header");

// What the network receive DMA deposits: the packet without its route.
struct alignas(8) ReceiveBuffer {
  via_packet_header header;
  uint8_t data[VIA_MAX_TRANSFER];
};
static_assert(offsetof(ReceiveBuffer, data) == kPacketHeaderBytes, "data follows the header");
static_assert(sizeof(ReceiveBuffer) == kMaxPacketPayload, "no padding after the data");

// A packet ready for the network send DMA.
struct OutgoingPacket {
  const uint8_t* start; // first route byte
  uint32_t length;      // route, header and data
  uint32_t route_len;
};

// Copies the route in front of the header of `buffer`, whose header and
// `data_bytes` of data are already in place.
inline OutgoingPacket frame_packet(SendBuffer& buffer, const Route& route, uint32_t data_bytes) {
  uint8_t* start = buffer.route + (VIA_MAX_ROUTE - route.length);
  for (uint32_t i = 0u; i < route.length; ++i)
    start[i] = route.bytes[i];
  return {start, route.length + kPacketHeaderBytes + data_bytes, route.length};
}

// True if a received payload of `payload_bytes` is a whole data packet
// whose header agrees with its size, and its fragment lies within its message.
inline bool packet_well_formed(const ReceiveBuffer& buffer, uint32_t payload_bytes) {
  if (payload_bytes < kPacketHeaderBytes)
    return false;
  const via_packet_header& header = buffer.header;
  return header.kind == VIA_PACKET_DATA && header.length <= VIA_MAX_TRANSFER &&
         header.length == payload_bytes - kPacketHeaderBytes &&
         header.message <= VIA_MAX_TRANSFER && header.offset <= header.message &&
         header.length <= header.message - header.offset;
}

// True if the packet carries a whole message: its only fragment.
inline bool packet_whole(const ReceiveBuffer& buffer) {
  const via_packet_header& header = buffer.header;
  return header.offset == 0u && header.length == header.message &&
         (header.flags & (VIA_PACKET_F_LAST | VIA_PACKET_F_ABORTED)) == VIA_PACKET_F_LAST;
}

} // namespace via
