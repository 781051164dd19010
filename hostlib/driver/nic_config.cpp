// Writing via_nic_config field by field. Offsets come from the shared C
// struct: its members are all naturally aligned 32-bit words and bytes, so
// the host compiler and the LANai compiler lay it out alike.
#include "hostlib/driver/nic_config.hpp"

#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

namespace lanai::vipl {

static_assert(offsetof(via_nic_config_block, vi) % 4 == 0, "VI entries must be word aligned");
static_assert(sizeof(via_vi_config) == 64, "via_vi_config is sixteen words");

NicConfig::NicConfig(nic::Card& card) : card_(card), base_(card.symbol(VIA_CONFIG_SYMBOL)) {}

void NicConfig::write_network(std::uint32_t node, std::uint32_t clock_khz,
                              const std::vector<std::vector<std::uint8_t>>& routes,
                              std::uint32_t retransmit_cycles, std::uint32_t retry_limit) {
  if (routes.size() > VIA_MAX_NODES)
    throw std::invalid_argument(
        fmt::format("{} nodes: a VIA NIC routes to at most {}", routes.size(), VIA_MAX_NODES));
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, magic), 0);
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, node), node);
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, nodes),
                        static_cast<std::uint32_t>(routes.size()));
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, clock_khz), clock_khz);
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, retransmit_cycles),
                        retransmit_cycles);
  card_.write_sram_word(base_ + offsetof(via_nic_config_block, retry_limit), retry_limit);

  std::vector<std::uint8_t> lengths(VIA_MAX_NODES, 0);
  std::vector<std::uint8_t> route_bytes(VIA_MAX_NODES * VIA_MAX_ROUTE, 0);
  for (std::size_t n = 0; n < routes.size(); ++n) {
    if (routes[n].size() > VIA_MAX_ROUTE)
      throw std::invalid_argument(
          fmt::format("route from node {} to node {} has {} hops; at most {}", node, n,
                      routes[n].size(), VIA_MAX_ROUTE));
    lengths[n] = static_cast<std::uint8_t>(routes[n].size());
    for (std::size_t hop = 0; hop < routes[n].size(); ++hop)
      route_bytes[n * VIA_MAX_ROUTE + hop] = routes[n][hop];
  }
  card_.write_sram(base_ + offsetof(via_nic_config_block, route_len), lengths);
  card_.write_sram(base_ + offsetof(via_nic_config_block, route), route_bytes);

  via_vi_config free_vi{};
  free_vi.state = VIA_VI_FREE;
  free_vi.vtick_lo = free_vi.vtick_hi = 0xFFFFFFFFu;
  for (std::uint32_t slot = 0; slot < VIA_MAX_VI; ++slot)
    write_vi(slot, free_vi);

  card_.write_sram_word(base_ + offsetof(via_nic_config_block, magic), VIA_CONFIG_MAGIC);
}

std::uint32_t NicConfig::vi_field(std::uint32_t slot, std::size_t offset) const {
  if (slot >= VIA_MAX_VI)
    throw std::out_of_range(fmt::format("VI {} out of range", slot));
  return static_cast<std::uint32_t>(base_ + offsetof(via_nic_config_block, vi) +
                                    slot * sizeof(via_vi_config) + offset);
}

void NicConfig::advance_epoch(std::uint32_t slot) {
  epochs_.at(slot) = (epochs_.at(slot) + 1) & 0xFFu;
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, epoch)), epochs_[slot]);
}

void NicConfig::write_vi(std::uint32_t slot, const via_vi_config& vi) {
  // A slot's new life starts a new epoch: nothing of its last one survives.
  advance_epoch(slot);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, ptag)), vi.ptag);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, reliability)), vi.reliability);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, mtu)), vi.mtu);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, remote_node)), vi.remote_node);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, remote_vi)), vi.remote_vi);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, vtick_lo)), vi.vtick_lo);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, vtick_hi)), vi.vtick_hi);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, access)), vi.access);
  write_vi_fragmentation(slot, vi);
  write_vi_state(slot, vi.state);
}

void NicConfig::write_vi_fragmentation(std::uint32_t slot, const via_vi_config& vi) {
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, frag_policy)), vi.frag_policy);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, frag_bytes)), vi.frag_bytes);
  for (std::size_t i = 0; i < 4; ++i)
    card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, frag_param) + 4 * i),
                          vi.frag_param[i]);
}

void NicConfig::write_vi_state(std::uint32_t slot, std::uint32_t state) {
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, state)), state);
}

void NicConfig::write_vi_peer(std::uint32_t slot, std::uint32_t remote_node,
                              std::uint32_t remote_vi) {
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, remote_node)), remote_node);
  card_.write_sram_word(vi_field(slot, offsetof(via_vi_config, remote_vi)), remote_vi);
}

} // namespace lanai::vipl
