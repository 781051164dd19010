// The configuration block the driver keeps in the card's SRAM (via_nic_config
// of lanai/via_abi.h): node number, routes to every node and one entry per
// VI. Written with programmed I/O in LANai (big-endian) word order.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "lanai/via_abi.h"
#include "emulator/nic/card.hpp"

namespace lanai::vipl {

class NicConfig {
public:
  // Throws std::out_of_range if the firmware defines no via_nic_config.
  explicit NicConfig(nic::Card& card);

  // PCI word writes each call makes, for charging their time beforehand:
  // the header, route lengths and routes, and every VI entry.
  static constexpr std::uint32_t vi_words = sizeof(via_vi_config) / 4;
  static constexpr std::uint32_t network_words =
      6 + (VIA_MAX_NODES + VIA_MAX_NODES * VIA_MAX_ROUTE) / 4 + VIA_MAX_VI * vi_words;

  // Everything but the VIs' own settings, every VI free; the magic word
  // goes last so firmware polling it never sees half a configuration.
  // routes[n] is the route to node n (empty for this node).
  // clock_khz tells firmware that measures time the LANai's clock;
  // firmware that retransmits resends after `retransmit_cycles` and breaks
  // a VI after `retry_limit` unanswered resends.
  void write_network(std::uint32_t node, std::uint32_t clock_khz,
                     const std::vector<std::vector<std::uint8_t>>& routes,
                     std::uint32_t retransmit_cycles, std::uint32_t retry_limit);
  // The VI's settings, then its state, so the state always describes a
  // complete entry.
  void write_vi(std::uint32_t slot, const via_vi_config& vi);
  void write_vi_state(std::uint32_t slot, std::uint32_t state);
  // The fragmentation policy's words only (frag_*).
  void write_vi_fragmentation(std::uint32_t slot, const via_vi_config& vi);
  static constexpr std::uint32_t fragmentation_words = 6;
  void write_vi_peer(std::uint32_t slot, std::uint32_t remote_node, std::uint32_t remote_vi);
  // Moves the VI to its next epoch: descriptors posted before are the
  // host's again (flushed) and the firmware drops what it still holds of them.
  void advance_epoch(std::uint32_t slot);
  // The epoch doorbells of this VI carry.
  std::uint32_t epoch(std::uint32_t slot) const { return epochs_.at(slot); }

private:
  std::uint32_t vi_field(std::uint32_t slot, std::size_t offset) const;

  nic::Card& card_;
  std::array<std::uint32_t, VIA_MAX_VI> epochs_{};
  std::uint32_t base_;
};

} // namespace lanai::vipl
