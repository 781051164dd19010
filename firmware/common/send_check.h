// Whether a VI can send a fetched send descriptor: the checks every
// firmware makes before gathering any data.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/descriptor.h"
#include "common/vi_table.h"

namespace via {

// Error bits (VIP_STATUS_*) for a descriptor `vi` cannot send, or 0. RDMA
// operations are sendable only by firmware that does them (`rdma_ops`:
// kRdmaWriteOp, kRdmaReadOp). Inline: every send of every firmware goes
// through it.
inline uint32_t check_send(uint32_t vi, const Descriptor& descriptor, uint32_t rdma_ops = 0u) {
  // A VI that is not connected, or broke, flushes what is posted on it.
  if (!vi_connected(vi))
    return VIP_STATUS_DESC_FLUSHED_ERROR;
  uint32_t total;
  const uint32_t format = check_data_segments(descriptor, total, rdma_ops);
  if (format != 0u)
    return format;
  if (total != descriptor.length)
    return VIP_STATUS_FORMAT_ERROR;
  if (descriptor.length > vi_max_message(vi))
    return VIP_STATUS_LENGTH_ERROR;
  return 0u;
}

} // namespace via
