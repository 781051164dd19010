// The latency breakdown of the published table, derived from a device
// trace of a ping-pong: on the sending node, when each operation of a
// message completed, counted from its send doorbell; on the receiving node,
// counted from the message's arrival at the NIC (its tail reaching the
// receive DMA). An operation done before the arrival (a receive descriptor
// fetched ahead, as PVIA does) counts 0, as in the published table.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "emulator/trace/trace_event.hpp"

namespace lanai::bench {

struct SendBreakdown {
  double hdma_prog_desc = 0, desc_down = 0, hdma_prog_data = 0, data_down = 0, nsdma_done = 0,
         hdma_prog_status = 0, status_done = 0;
};
struct RecvBreakdown {
  double nrdma_done = 0; // the packet's tail done in SRAM (not a row of the published table)
  double hdma_prog_desc = 0, desc_down = 0, hdma_prog_data = 0, data_up = 0, hdma_prog_status = 0,
         status_done = 0;
};
// Means over the messages analysed, in microseconds.
struct Breakdown {
  SendBreakdown send;
  RecvBreakdown recv;
  double arrival = 0; // from the send doorbell to the arrival, which the receive side counts from
  std::size_t messages = 0;
};

// Where one side's descriptor and data buffer live in host memory.
struct MessageBuffers {
  std::uint32_t node = 0;
  // Message k's descriptor is descriptors[k % descriptors.size()]: rounds
  // may take a few descriptors in turn.
  std::vector<std::uint64_t> descriptors;
  std::uint64_t data = 0;
  std::uint32_t bytes = 0;
  std::uint64_t descriptor_of(std::size_t message) const {
    assert(!descriptors.empty());
    return descriptors[message % descriptors.size()];
  }
};

// Messages `sender` sent to `receiver`, skipping the first `skip` (warm-up).
// Throws std::runtime_error if an operation of an analysed message is
// missing from the trace.
Breakdown ping_breakdown(std::span<const trace::Event> events, const MessageBuffers& sender,
                         const MessageBuffers& receiver, std::size_t skip);

} // namespace lanai::bench
