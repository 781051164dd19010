// What the descriptor fuzzer's host programs share: a two-node cluster of a
// shipped firmware run to its end, and the set-up steps of each side (NIC,
// tag, a registered region, a completion queue, a connected VI). The region
// each side registers sits between unregistered guard bytes, and the
// receiver's is offered to the poster as an RDMA target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

#include "emulator/host/cluster.hpp"
#include "emulator/loader/firmware_lookup.hpp"
#include "emulator/machine/standalone_machine.hpp"
#include "hostlib/driver/session.hpp"
#include "vipl.h"

namespace fuzz {

constexpr std::size_t kGuard = 4096;
constexpr std::uint8_t kGuardByte = 0xA5;
constexpr std::size_t kDescriptors = 24;
constexpr std::size_t kData = 16384;

// A registered region (descriptors, then data) with unregistered guard
// bytes on both sides.
struct Arena {
  alignas(64) std::uint8_t before[kGuard];
  VIP_DESCRIPTOR descriptors[kDescriptors];
  alignas(64) std::uint8_t data[kData];
  std::uint8_t after[kGuard];

  Arena() {
    std::memset(before, kGuardByte, sizeof before);
    std::memset(after, kGuardByte, sizeof after);
  }
  void* registered() { return descriptors; }
  static constexpr std::size_t registered_bytes() { return sizeof(Arena) - 2 * kGuard; }
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i)
      if (before[i] != kGuardByte || after[i] != kGuardByte)
        return false;
    return true;
  }
};

// The receiver's region as an RDMA target.
struct Target {
  Arena* arena = nullptr;
  VIP_MEM_HANDLE handle = 0;
};

// One node's NIC, tag, registered arena, completion queue and VI. A VI
// that may take RDMA writes where the firmware offers them.
class Endpoint {
public:
  Endpoint(Arena& arena, bool rdma_region) {
    require(VipOpenNic("nic0", &nic_));
    // Errors the fuzzed descriptors cause are expected: heard, not printed.
    require(VipErrorCallback(nic_, nullptr, [](VIP_PVOID, VIP_ERROR_DESCRIPTOR*) {}));
    require(VipCreatePtag(nic_, &ptag_));
    VIP_MEM_ATTRIBUTES attributes{ptag_, rdma_region ? VIP_TRUE : VIP_FALSE, VIP_FALSE};
    require(
        VipRegisterMem(nic_, arena.registered(), Arena::registered_bytes(), &attributes, &memory_));
    require(VipCreateCQ(nic_, 4 * kDescriptors, &cq_));
    VIP_VI_ATTRIBUTES vi{};
    vi.ReliabilityLevel = VIP_SERVICE_RELIABLE_DELIVERY;
    vi.MaxTransferSize = kData;
    vi.Ptag = ptag_;
    vi.EnableRdmaWrite = VIP_TRUE;
    if (VipCreateVi(nic_, &vi, cq_, cq_, &vi_) == VIP_ERROR_NOT_SUPPORTED) {
      vi.EnableRdmaWrite = VIP_FALSE;
      require(VipCreateVi(nic_, &vi, cq_, cq_, &vi_));
    }
  }

  VIP_MEM_HANDLE register_other(void* at, std::size_t bytes) {
    VIP_MEM_ATTRIBUTES attributes{ptag_, VIP_FALSE, VIP_FALSE};
    VIP_MEM_HANDLE h = 0;
    require(VipRegisterMem(nic_, at, bytes, &attributes, &h));
    return h;
  }
  VIP_NIC_HANDLE nic() const { return nic_; }
  VIP_VI_HANDLE vi() const { return vi_; }
  VIP_CQ_HANDLE cq() const { return cq_; }
  VIP_MEM_HANDLE memory() const { return memory_; }

  // Connects as the client to `peer`; false if the peer never answered.
  bool connect_to(int peer);
  // Waits for the poster's connection request and accepts it.
  bool accept();

private:
  static void require(VIP_RETURN r) {
    if (r != VIP_SUCCESS)
      __builtin_trap();
  }
  VIP_NIC_HANDLE nic_ = nullptr;
  VIP_PROTECTION_HANDLE ptag_ = nullptr;
  VIP_MEM_HANDLE memory_ = 0;
  VIP_CQ_HANDLE cq_ = nullptr;
  VIP_VI_HANDLE vi_ = nullptr;
};

// True for the codes VIPL calls return.
inline bool known_return(VIP_RETURN r) { return r >= VIP_SUCCESS && r <= VIP_ERROR_NOT_SUPPORTED; }

// Runs `poster` on node 0 and `receiver` on node 1 of a cluster of
// `firmware` to their end; a card that faults is a crash.
void run_pair(const char* firmware, std::function<int()> poster, std::function<int()> receiver);

} // namespace fuzz
