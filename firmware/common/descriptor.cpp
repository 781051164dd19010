// Decoding and checking descriptors fetched from host memory, and encoding
// their completions. Descriptors are little endian whatever the LANai's
// byte order, so every field goes through via_le32.
#include "common/descriptor.h"

namespace via {

namespace {

DataSegment decode_segment(const uint8_t* bytes, uint32_t at) {
  const uint8_t* field = bytes + VIA_DESC_SEGMENTS + at * VIA_SEG_SIZE;
  const uint32_t low = via_le32(field + VIA_SEG_ADDR);
  const uint32_t high = via_le32(field + VIA_SEG_ADDR + 4);
  return {(uint64_t{high} << 32) | low, via_le32(field + VIA_SEG_HANDLE),
          via_le32(field + VIA_SEG_LENGTH)};
}

// An RDMA operation's first segment is its address segment: it becomes
// `remote`, and the data segments move up. Out of line: sends and
// receives, the common case, do not pay for it.
[[gnu::noinline]] void take_address_segment(Descriptor& out) {
  out.remote = out.segments[0];
  out.remote.length = 1u;
  for (uint32_t i = 0u; i + 1u < VIA_MAX_SEGMENTS; ++i)
    out.segments[i] = out.segments[i + 1u];
  --out.segment_count;
}

} // namespace

void decode_descriptor(const DescriptorCopy& copy, Descriptor& out) {
  const uint8_t* bytes = copy.bytes;
  // SegCount and Control share one little-endian word.
  const uint32_t counts = via_le32(bytes + VIA_DESC_SEGCOUNT);
  out.segment_count = counts & 0xFFFFu;
  out.control = counts >> 16;
  out.immediate = via_le32(bytes + VIA_DESC_IMMEDIATE);
  out.length = via_le32(bytes + VIA_DESC_LENGTH);
  out.remote.length = 0u;
  const uint32_t decoded =
      out.segment_count < VIA_MAX_SEGMENTS ? out.segment_count : VIA_MAX_SEGMENTS;
  for (uint32_t i = 0u; i < decoded; ++i)
    out.segments[i] = decode_segment(bytes, i);
  // RDMAWRITE (1) and RDMAREAD (2) have an address segment; RESERVED (3)
  // is refused by every check, so it may be decoded either way.
  if ((out.control & VIP_CONTROL_OP_MASK) != VIP_CONTROL_OP_SENDRECV && out.segment_count != 0u)
    take_address_segment(out);
}

uint32_t segment_pieces(const Descriptor& descriptor, uint32_t offset, uint32_t bytes,
                        DataSegment out[VIA_MAX_SEGMENTS]) {
  uint32_t pieces = 0u;
  uint32_t start = 0u; // the segment's first byte in the message
  for (uint32_t i = 0u; i < descriptor.segment_count && i < VIA_MAX_SEGMENTS && bytes != 0u; ++i) {
    const DataSegment& segment = descriptor.segments[i];
    const uint32_t end = start + segment.length;
    if (offset < end) {
      const uint32_t within = offset - start;
      const uint32_t room = segment.length - within;
      const uint32_t take = bytes < room ? bytes : room;
      out[pieces++] = {segment.address + within, segment.handle, take};
      offset += take;
      bytes -= take;
    }
    start = end;
  }
  return pieces;
}

} // namespace via
