// The configuration block the host driver writes into SRAM: the magic word
// that says it is complete, this node, the source routes to every node and
// the VI table. The driver may change it at any time, so every read is fresh.
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/sram_placement.h"

// The driver finds the block by this symbol name; C linkage keeps it plain.
// (In the braced form: clang-14 drops the section of a declaration written
// `extern "C" T x;`, and would reach the block with 21-bit addresses.)
namespace via::abi_symbol {
extern "C" {
VIA_LARGE_DATA extern volatile ::via_nic_config_block via_nic_config;
}
} // namespace via::abi_symbol

namespace via {

inline volatile ::via_nic_config_block& nic_config() { return abi_symbol::via_nic_config; }

// The driver writes the magic word last, once the rest of the block is valid.
inline bool nic_configured() { return nic_config().magic == VIA_CONFIG_MAGIC; }

// Spins until the driver has written the block, when the NIC is opened,
// possibly long after reset; until then nothing else on the card is meaningful.
inline void wait_for_configuration() {
  while (!nic_configured()) {
  }
}

// The source route to a node: first hop first. Empty for a node that
// cannot be reached (including this one) or whose entry is malformed.
struct Route {
  uint32_t length;
  const volatile uint8_t* bytes;
};

inline Route route_to(uint32_t node) {
  if (node >= VIA_MAX_NODES)
    return {0u, nullptr};
  volatile ::via_nic_config_block& config = nic_config();
  const uint32_t length = config.route_len[node];
  if (length > VIA_MAX_ROUTE)
    return {0u, nullptr};
  return {length, config.route[node]};
}

} // namespace via
