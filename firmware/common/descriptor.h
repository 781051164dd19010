// VIA descriptors as firmware handles them: the 64-byte copy a host DMA
// brought into SRAM (host byte order, VIA_DESC_* offsets) decoded into
// plain fields, checked, and the 12-byte completion written back to host
// memory.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

namespace via {

// Where a doorbell said a posted descriptor lives in host memory.
struct PostedDescriptor {
  uint32_t address_lo;
  uint32_t address_hi;
  uint32_t handle; // memory handle of the region holding the descriptor
  uint32_t epoch;  // the VI's epoch at posting; an older one means flushed

  uint64_t address() const { return (uint64_t{address_hi} << 32) | address_lo; }
};

// Landing place for one descriptor fetched from host memory.
struct alignas(8) DescriptorCopy {
  uint8_t bytes[VIA_DESC_BYTES];
};

struct DataSegment {
  uint64_t address;
  uint32_t handle;
  uint32_t length;
};

struct Descriptor {
  uint32_t control;       // VIP_CONTROL_*
  uint32_t segment_count; // data segments: as posted (less an RDMA write's address
                          // segment); only the first VIA_MAX_SEGMENTS are decoded
  uint32_t immediate;
  uint32_t length; // send: bytes to send
  DataSegment segments[VIA_MAX_SEGMENTS];
  // An RDMA write or read names the remote memory (written to, or read
  // from) in its first segment: `remote`'s address and handle. Address segments carry no length, so `remote`'s
  // says whether there is one (1) or not (0); the struct stays 64 bytes.
  DataSegment remote;
  bool has_remote() const { return remote.length != 0u; }
};
static_assert(sizeof(Descriptor) == 64, "a power of two: records index it by shifting");

inline uint32_t descriptor_op(const Descriptor& descriptor) {
  return descriptor.control & VIP_CONTROL_OP_MASK;
}

void decode_descriptor(const DescriptorCopy& copy, Descriptor& out);

// The message's bytes [offset, offset + bytes) as they lie in the
// descriptor's segments, in order: `out` gets one piece per segment touched
// (a fragment of a message may straddle two). Returns the number of pieces;
// bytes beyond the segments are left out.
uint32_t segment_pieces(const Descriptor& descriptor, uint32_t offset, uint32_t bytes,
                        DataSegment out[VIA_MAX_SEGMENTS]);

// RDMA operations a firmware does, for check_data_segments: one bit per op.
constexpr uint32_t kRdmaWriteOp = 1u << VIP_CONTROL_OP_RDMAWRITE;
constexpr uint32_t kRdmaReadOp = 1u << VIP_CONTROL_OP_RDMAREAD;

// VIP_STATUS_FORMAT_ERROR if the descriptor is not a send/receive (or an
// RDMA operation among `rdma_ops` naming its remote memory; an RDMA read
// carries no immediate data) or its segment list is malformed, else 0 with
// the data segments' total length in `total`.
inline uint32_t check_data_segments(const Descriptor& descriptor, uint32_t& total,
                                    uint32_t rdma_ops = 0u) {
  total = 0u;
  const uint32_t op = descriptor_op(descriptor);
  if (op != VIP_CONTROL_OP_SENDRECV &&
      ((rdma_ops & 1u << op) == 0u || !descriptor.has_remote() ||
       (op == VIP_CONTROL_OP_RDMAREAD && (descriptor.control & VIP_CONTROL_IMMEDIATE) != 0u)))
    return VIP_STATUS_FORMAT_ERROR;
  if (descriptor.segment_count > VIA_MAX_SEGMENTS - descriptor.remote.length)
    return VIP_STATUS_FORMAT_ERROR;
  uint32_t sum = 0u;
  for (uint32_t i = 0u; i < descriptor.segment_count; ++i) {
    const uint32_t length = descriptor.segments[i].length;
    if (sum + length < sum) // wrapped: no buffer is that large
      return VIP_STATUS_FORMAT_ERROR;
    sum += length;
  }
  total = sum;
  return 0u;
}

// The words the host reads back: ImmediateData, Length and Status, in host
// byte order, to be written at completion_address().
struct alignas(4) Completion {
  uint8_t bytes[VIA_DESC_WRITEBACK_BYTES];
};

inline void encode_completion(Completion& out, uint32_t immediate, uint32_t length,
                              uint32_t status) {
  static_assert(VIA_DESC_LENGTH - VIA_DESC_WRITEBACK == 4 &&
                    VIA_DESC_STATUS - VIA_DESC_WRITEBACK == 8,
                "completion words follow the descriptor's layout");
  via_store_le32(out.bytes + (VIA_DESC_IMMEDIATE - VIA_DESC_WRITEBACK), immediate);
  via_store_le32(out.bytes + (VIA_DESC_LENGTH - VIA_DESC_WRITEBACK), length);
  via_store_le32(out.bytes + (VIA_DESC_STATUS - VIA_DESC_WRITEBACK), status);
}

inline uint64_t completion_address(const PostedDescriptor& posted) {
  return posted.address() + VIA_DESC_WRITEBACK;
}

} // namespace via
