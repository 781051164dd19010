// Decoding and checking descriptors fetched from host memory, and encoding
// their completions. Descriptors are little endian whatever the LANai's
// byte order, so every field goes through via_le32.
#include "common/descriptor.h"

namespace via {

void decode_descriptor(const DescriptorCopy& copy, Descriptor& out) {
  const uint8_t* bytes = copy.bytes;
  // SegCount and Control share one little-endian word.
  const uint32_t counts = via_le32(bytes + VIA_DESC_SEGCOUNT);
  out.segment_count = counts & 0xFFFFu;
  out.control = counts >> 16;
  out.immediate = via_le32(bytes + VIA_DESC_IMMEDIATE);
  out.length = via_le32(bytes + VIA_DESC_LENGTH);
  const uint32_t decoded =
      out.segment_count < VIA_MAX_SEGMENTS ? out.segment_count : VIA_MAX_SEGMENTS;
  for (uint32_t i = 0u; i < decoded; ++i) {
    const uint8_t* segment = bytes + VIA_DESC_SEGMENTS + i * VIA_SEG_SIZE;
    const uint32_t low = via_le32(segment + VIA_SEG_ADDR);
    const uint32_t high = via_le32(segment + VIA_SEG_ADDR + 4);
    out.segments[i].address = (uint64_t{high} << 32) | low;
    out.segments[i].handle = via_le32(segment + VIA_SEG_HANDLE);
    out.segments[i].length = via_le32(segment + VIA_SEG_LENGTH);
  }
}

uint32_t segment_pieces(const Descriptor& descriptor, uint32_t offset, uint32_t bytes,
                        DataSegment out[VIA_MAX_SEGMENTS]) {
  uint32_t pieces = 0u;
  uint32_t start = 0u; // the segment's first byte in the message
  for (uint32_t i = 0u; i < descriptor.segment_count && i < VIA_MAX_SEGMENTS && bytes != 0u;
       ++i) {
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
