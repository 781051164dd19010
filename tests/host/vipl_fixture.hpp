// Running VIPL programs in tests: a cluster of cards with test firmware, a
// VIPL session around the run, the usual set-up steps of a host program
// (NIC, tag, registered buffer of aligned descriptors, VI), and a view of
// the configuration block the driver wrote into each card's SRAM.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tests/host/cluster_fixture.hpp"
#include "hostlib/driver/session.hpp"
#include "vipl.h"

namespace host_test {

// Descriptors first (64-byte aligned), then data.
struct alignas(VIP_DESCRIPTOR_ALIGNMENT) Buffer {
  VIP_DESCRIPTOR descriptors[VIA_QUEUE_DEPTH + 2];
  unsigned char data[4096];
};

inline VIP_VI_ATTRIBUTES
vi_attributes(VIP_PROTECTION_HANDLE ptag, VIP_ULONG mtu = 8192,
              VIP_RELIABILITY_LEVEL level = VIP_SERVICE_RELIABLE_DELIVERY) {
  VIP_VI_ATTRIBUTES a{};
  a.ReliabilityLevel = level;
  a.MaxTransferSize = mtu;
  a.QoS = nullptr;
  a.Ptag = ptag;
  a.EnableRdmaWrite = VIP_FALSE;
  a.EnableRdmaRead = VIP_FALSE;
  return a;
}

// What most programs start with. Each step is checked.
struct NodeSetup {
  VIP_NIC_HANDLE nic = nullptr;
  VIP_PROTECTION_HANDLE ptag = nullptr;
  VIP_MEM_HANDLE memory = 0;
  VIP_VI_HANDLE vi = nullptr;
  std::unique_ptr<Buffer> buffer = std::make_unique<Buffer>();

  explicit NodeSetup(VIP_CQ_HANDLE (*make_cq)(VIP_NIC_HANDLE) = nullptr, VIP_ULONG mtu = 8192) {
    CHECK(VipOpenNic("nic0", &nic) == VIP_SUCCESS);
    CHECK(VipCreatePtag(nic, &ptag) == VIP_SUCCESS);
    VIP_MEM_ATTRIBUTES memory_attributes{ptag, VIP_FALSE, VIP_FALSE};
    CHECK(VipRegisterMem(nic, buffer.get(), sizeof(Buffer), &memory_attributes, &memory) ==
          VIP_SUCCESS);
    VIP_CQ_HANDLE cq = make_cq ? make_cq(nic) : nullptr;
    VIP_VI_ATTRIBUTES attributes = vi_attributes(ptag, mtu);
    CHECK(VipCreateVi(nic, &attributes, cq, cq, &vi) == VIP_SUCCESS);
  }

  VIP_DESCRIPTOR* descriptor(std::size_t i, VIP_UINT16 segments = 1) {
    VIP_DESCRIPTOR* d = &buffer->descriptors[i];
    *d = VIP_DESCRIPTOR{};
    d->CS.SegCount = segments;
    d->CS.Length = 64;
    if (segments > 0) {
      d->DS[0].Local.Data.Address = buffer->data;
      d->DS[0].Local.Handle = memory;
      d->DS[0].Local.Length = 64;
    }
    return d;
  }
};

// A network address for node `node` with a one-byte discriminator.
struct Address {
  VIP_NET_ADDRESS header{};
  unsigned char room[32]{};

  Address(int node, unsigned char discriminator) {
    header.HostAddressLen = 2;
    header.DiscriminatorLen = 1;
    auto* bytes = header.HostAddress;
    bytes[0] = static_cast<unsigned char>(node >> 8);
    bytes[1] = static_cast<unsigned char>(node);
    bytes[2] = discriminator;
  }
  VIP_NET_ADDRESS* get() { return &header; }
  // Byte i of host address and discriminator; they run past the declared
  // one-element array, so index through a pointer.
  unsigned char byte(std::size_t i) const {
    const unsigned char* bytes = header.HostAddress;
    return bytes[i];
  }
};

class ViplCluster {
public:
  explicit ViplCluster(std::size_t nodes, const std::string& firmware = "host_idle_via")
      : cluster_(test_config(nodes, firmware)) {}
  explicit ViplCluster(lanai::host::ClusterConfig config) : cluster_(std::move(config)) {}

  lanai::host::RunReport run(std::vector<std::function<int()>> programs) {
    return lanai::vipl::run_programs(cluster_, std::move(programs));
  }

  lanai::host::Cluster& cluster() { return cluster_; }

  // A word of the driver-written configuration block of `node`.
  std::uint32_t config_word(std::size_t node, std::size_t offset) {
    auto& card = cluster_.card(node);
    return card.read_sram_word(card.symbol(VIA_CONFIG_SYMBOL) + static_cast<std::uint32_t>(offset));
  }
  std::uint32_t vi_word(std::size_t node, std::uint32_t slot, std::size_t field) {
    return config_word(node,
                       offsetof(via_nic_config_block, vi) + slot * sizeof(via_vi_config) + field);
  }

private:
  lanai::host::Cluster cluster_;
};

inline std::uint64_t now_ns() { return lanai_emu_now_ns(); }

// The VI's state, as VipQueryVi reports it.
inline VIP_VI_STATE state_of(VIP_VI_HANDLE vi) {
  VIP_VI_STATE state{};
  VIP_VI_ATTRIBUTES attributes{};
  VIP_BOOLEAN s = VIP_FALSE;
  VIP_BOOLEAN r = VIP_FALSE;
  CHECK(VipQueryVi(vi, &state, &attributes, &s, &r) == VIP_SUCCESS);
  return state;
}

} // namespace host_test
