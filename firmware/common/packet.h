// The VIA data packet: the source route the switches consume, then the
// header (via_packet_header, LANai byte order), then the message. Buffers
// keep the header word-aligned; a send buffer puts the route bytes right in
// front of it, so the packet is contiguous whatever the route's length.
// Firmware SDK: stable.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/nic_config.h"

namespace via {

constexpr uint32_t kPacketHeaderBytes = sizeof(via_packet_header);
constexpr uint32_t kRdmaTrailerBytes = sizeof(via_rdma_trailer);
static_assert(kRdmaTrailerBytes == VIA_RDMA_TRAILER_BYTES, "trailer size is the ABI's");
// Room behind a packet's data: the largest message and an RDMA trailer.
constexpr uint32_t kMaxPacketData = VIA_MAX_TRANSFER + kRdmaTrailerBytes;
// The header and the largest data: what a receive buffer must hold.
constexpr uint32_t kMaxPacketPayload = kPacketHeaderBytes + kMaxPacketData;

struct alignas(8) SendBuffer {
  uint8_t route[VIA_MAX_ROUTE]; // the route's bytes end where the header starts
  via_packet_header header;
  uint8_t data[kMaxPacketData];
};
static_assert(offsetof(SendBuffer, header) == VIA_MAX_ROUTE, "route abuts the header");
static_assert(offsetof(SendBuffer, data) == VIA_MAX_ROUTE + kPacketHeaderBytes,
              "data follows the header");

// What the network receive DMA deposits: the packet without its route.
struct alignas(8) ReceiveBuffer {
  via_packet_header header;
  uint8_t data[kMaxPacketData];
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

// Bytes a packet carries behind its data: an RDMA write's or read
// request's trailer.
inline uint32_t packet_trailer_bytes(const via_packet_header& header) {
  return (header.flags & (VIA_PACKET_F_RDMA_WRITE | VIA_PACKET_F_RDMA_READ)) != 0u
             ? kRdmaTrailerBytes
             : 0u;
}

// True if a received payload of `payload_bytes` is a whole data packet
// whose header agrees with its size, and its fragment lies within its
// message.
inline bool packet_well_formed(const ReceiveBuffer& buffer, uint32_t payload_bytes) {
  if (payload_bytes < kPacketHeaderBytes)
    return false;
  const via_packet_header& header = buffer.header;
  return header.kind == VIA_PACKET_DATA && header.length <= VIA_MAX_TRANSFER &&
         header.length + packet_trailer_bytes(header) == payload_bytes - kPacketHeaderBytes &&
         header.message <= VIA_MAX_TRANSFER && header.offset <= header.message &&
         header.length <= header.message - header.offset;
}

// True if a received payload of `payload_bytes` is an acknowledgement: a
// header alone.
inline bool ack_well_formed(const ReceiveBuffer& buffer, uint32_t payload_bytes) {
  return payload_bytes == kPacketHeaderBytes && buffer.header.kind == VIA_PACKET_ACK &&
         buffer.header.length == 0u;
}

// True if the packet carries a whole message: its only fragment.
inline bool packet_whole(const ReceiveBuffer& buffer) {
  const via_packet_header& header = buffer.header;
  return header.offset == 0u && header.length == header.message &&
         (header.flags & (VIA_PACKET_F_LAST | VIA_PACKET_F_ABORTED)) == VIA_PACKET_F_LAST;
}

// Where an RDMA write's fragment goes at the target (its trailer's address
// plus the fragment's offset, under the trailer's memory handle), or where
// an RDMA read request's data comes from. The trailer follows data of any
// length, so it is read and written a byte at a time (big endian, like the
// header).
struct RdmaTarget {
  uint64_t address;
  uint32_t handle;
};
inline uint32_t load_be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}
inline void store_be32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}
inline RdmaTarget rdma_target(const ReceiveBuffer& buffer) {
  const uint8_t* trailer = buffer.data + buffer.header.length;
  const uint64_t base = uint64_t{load_be32(trailer + offsetof(via_rdma_trailer, address_hi))}
                            << 32 |
                        load_be32(trailer + offsetof(via_rdma_trailer, address_lo));
  return {base + buffer.header.offset, load_be32(trailer + offsetof(via_rdma_trailer, handle))};
}
// Writes an RDMA write's trailer behind `data_bytes` of data in `buffer`.
inline void put_rdma_trailer(SendBuffer& buffer, uint32_t data_bytes, uint64_t address,
                             uint32_t handle) {
  uint8_t* trailer = buffer.data + data_bytes;
  store_be32(trailer + offsetof(via_rdma_trailer, address_hi),
             static_cast<uint32_t>(address >> 32));
  store_be32(trailer + offsetof(via_rdma_trailer, address_lo), static_cast<uint32_t>(address));
  store_be32(trailer + offsetof(via_rdma_trailer, handle), handle);
  store_be32(trailer + offsetof(via_rdma_trailer, reserved), 0u);
}

} // namespace via
