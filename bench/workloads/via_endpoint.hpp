// What every bench host program does first, in C++ over the VIPL: open the
// NIC, register one block of memory for descriptors and buffers, create
// VIs (with a rate or best effort) and connect them. Failures throw
// std::runtime_error naming the call and its VIP_RETURN, which the host
// records as the node's failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "emulator/kernel/sim_time.hpp"
#include "vipl.h"

namespace lanai::bench {

// Throws std::runtime_error("<call>: <return code name>") unless VIP_SUCCESS.
void check_vip(VIP_RETURN r, std::string_view call);

// Host memory of one run's programs, handed out in 64-byte aligned zeroed
// blocks. Create it before the cluster: it outlives the run, so a NIC that
// still holds descriptors when a program ends (a receiver that stopped
// waiting, a failed run) never writes into freed memory.
class HostMemory {
public:
  std::uint8_t* allocate(std::size_t bytes);

private:
  struct FreeAligned {
    void operator()(std::uint8_t* p) const;
  };
  std::vector<std::unique_ptr<std::uint8_t, FreeAligned>> blocks_;
};

// Bytes of registered memory one posted message takes: its 64-byte
// descriptor and up to `max_transfer` bytes of data, 64-byte aligned.
inline std::size_t message_slot_bytes(std::uint32_t max_transfer) {
  return 64 + (std::size_t{max_transfer} + 63) / 64 * 64;
}

// The node's NIC, one protection tag and one registered memory block.
class Endpoint {
public:
  // Opens the NIC and registers `bytes` of memory taken from `memory`.
  Endpoint(std::size_t bytes, HostMemory& memory);
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  VIP_NIC_HANDLE nic() const { return nic_; }
  VIP_MEM_HANDLE memory_handle() const { return mh_; }
  std::uint8_t* memory() const { return memory_; }
  std::size_t bytes() const { return bytes_; }
  int node() const { return node_; }

  // A reliable VI (Reliable Delivery unless `reliability` says otherwise)
  // for messages of at most `max_transfer` bytes (under rate-based
  // firmware every message costs one tick of the rate at this size);
  // `bytes_per_s` 0 asks for best effort.
  VIP_VI_HANDLE create_vi(double bytes_per_s, std::uint32_t max_transfer,
                          VIP_CQ_HANDLE send_cq = nullptr, VIP_CQ_HANDLE recv_cq = nullptr,
                          std::uint32_t reliability = VIP_SERVICE_RELIABLE_DELIVERY);
  // Connects `vi` to node `peer` on `discriminator`: the active side
  // requests, the passive one waits and accepts.
  void connect(VIP_VI_HANDLE vi, int peer, std::uint8_t discriminator, bool active);

private:
  int node_;
  VIP_NIC_HANDLE nic_ = nullptr;
  VIP_PROTECTION_HANDLE ptag_ = nullptr;
  VIP_MEM_HANDLE mh_ = 0;
  std::uint8_t* memory_;
  std::size_t bytes_;
};

// Fills `d` for one segment of `length` bytes at `buffer` in `ep`'s memory.
void fill_descriptor(VIP_DESCRIPTOR* d, const Endpoint& ep, void* buffer, std::uint32_t length);

// Virtual time now on this node's host, exactly.
kernel::SimTime host_now();
// Lets virtual time pass on this host until `t` (no-op if already past).
void host_wait_until(kernel::SimTime t);

} // namespace lanai::bench
