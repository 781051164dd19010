#include "bench/workloads/via_endpoint.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "emulator/host/host_cpu.hpp"
#include "vipl_emu.h"

namespace lanai::bench {

void check_vip(VIP_RETURN r, std::string_view call) {
  if (r != VIP_SUCCESS)
    throw std::runtime_error(fmt::format("{} failed: VIP_RETURN {}", call, static_cast<int>(r)));
}

void HostMemory::FreeAligned::operator()(std::uint8_t* p) const { std::free(p); }

std::uint8_t* HostMemory::allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  std::unique_ptr<std::uint8_t, FreeAligned> block(
      static_cast<std::uint8_t*>(std::aligned_alloc(64, rounded)));
  if (!block)
    throw std::runtime_error("out of host memory for the bench buffers");
  std::memset(block.get(), 0, rounded);
  blocks_.push_back(std::move(block));
  return blocks_.back().get();
}

Endpoint::Endpoint(std::size_t bytes, HostMemory& memory)
    : node_(lanai_emu_node()), memory_(memory.allocate(bytes)), bytes_((bytes + 63) / 64 * 64) {
  check_vip(VipOpenNic(const_cast<char*>("nic0"), &nic_), "VipOpenNic");
  check_vip(VipCreatePtag(nic_, &ptag_), "VipCreatePtag");
  VIP_MEM_ATTRIBUTES attrs{ptag_, VIP_FALSE, VIP_FALSE};
  check_vip(VipRegisterMem(nic_, memory_, bytes_, &attrs, &mh_), "VipRegisterMem");
}

VIP_VI_HANDLE Endpoint::create_vi(double bytes_per_s, std::uint32_t max_transfer,
                                  VIP_CQ_HANDLE send_cq, VIP_CQ_HANDLE recv_cq,
                                  std::uint32_t reliability) {
  VIP_QOS_REQUEST qos{static_cast<VIP_ULONG>(bytes_per_s)};
  VIP_VI_ATTRIBUTES attrs{reliability, max_transfer, bytes_per_s > 0 ? &qos : nullptr,
                          ptag_,       VIP_FALSE,    VIP_FALSE};
  VIP_VI_HANDLE vi = nullptr;
  check_vip(VipCreateVi(nic_, &attrs, send_cq, recv_cq, &vi), "VipCreateVi");
  return vi;
}

void Endpoint::connect(VIP_VI_HANDLE vi, int peer, std::uint8_t discriminator, bool active) {
  alignas(8) char local[64] = {}, remote[64] = {};
  auto* la = reinterpret_cast<VIP_NET_ADDRESS*>(local);
  auto* ra = reinterpret_cast<VIP_NET_ADDRESS*>(remote);
  std::string me_name = fmt::format("node{}", node_), peer_name = fmt::format("node{}", peer);
  check_vip(VipNSGetHostByName(nic_, me_name.data(), la, 0), "VipNSGetHostByName");
  check_vip(VipNSGetHostByName(nic_, peer_name.data(), ra, 0), "VipNSGetHostByName");
  la->DiscriminatorLen = ra->DiscriminatorLen = 1;
  la->HostAddress[la->HostAddressLen] = ra->HostAddress[ra->HostAddressLen] = discriminator;
  VIP_VI_ATTRIBUTES remote_attrs;
  if (active) {
    check_vip(VipConnectRequest(vi, la, ra, VIP_INFINITE, &remote_attrs), "VipConnectRequest");
    return;
  }
  VIP_CONN_HANDLE conn = nullptr;
  check_vip(VipConnectWait(nic_, la, VIP_INFINITE, ra, &remote_attrs, &conn), "VipConnectWait");
  check_vip(VipConnectAccept(conn, vi), "VipConnectAccept");
}

void fill_descriptor(VIP_DESCRIPTOR* d, const Endpoint& ep, void* buffer, std::uint32_t length) {
  std::memset(d, 0, sizeof *d);
  d->CS.SegCount = 1;
  d->CS.Length = length;
  d->DS[0].Local.Data.Address = buffer;
  d->DS[0].Local.Handle = ep.memory_handle();
  d->DS[0].Local.Length = length;
}

kernel::SimTime host_now() {
  host::HostCpu* host = host::HostCpu::current();
  if (!host)
    throw std::logic_error("host_now called outside a host program");
  return host->time();
}

void host_wait_until(kernel::SimTime t) {
  host::HostCpu* host = host::HostCpu::current();
  if (!host)
    throw std::logic_error("host_wait_until called outside a host program");
  const kernel::SimTime now = host->time();
  if (t > now)
    host->compute(t - now);
}

} // namespace lanai::bench
