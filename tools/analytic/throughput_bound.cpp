#include "tools/analytic/throughput_bound.hpp"

#include <algorithm>

#include "lanai/via_abi.h"

namespace lanai::models {

ThroughputBound throughput_bound(const profile::HardwareProfile& profile,
                                 std::uint32_t message_bytes, std::uint32_t route_bytes) {
  const profile::NicParams& nic = profile.nic;
  // MB/s is bytes per microsecond.
  const double setup_us = nic.hdma_setup_ns / 1000.0;
  const double host_bytes =
      VIA_DESC_BYTES + static_cast<double>(message_bytes) + VIA_DESC_WRITEBACK_BYTES;
  ThroughputBound b;
  b.host_dma_us = 3 * setup_us + host_bytes / nic.pci_mbytes_per_s;
  const double wire_bytes =
      static_cast<double>(route_bytes) + VIA_PACKET_HEADER_BYTES + message_bytes;
  b.network_us = nic.nsdma_setup_ns / 1000.0 + wire_bytes / profile.wire.link_mbytes_per_s;
  b.pipelined_mbytes_per_s = message_bytes / std::max(b.host_dma_us, b.network_us);
  b.serial_mbytes_per_s = message_bytes / (b.host_dma_us + b.network_us);
  return b;
}

} // namespace lanai::models
