// VipOpenNic, VipCloseNic, VipQueryNic, VipErrorCallback and
// VipQuerySystemManagementInfo: the NIC as a whole. Opening the NIC is
// what hands the firmware its configuration.
#include <algorithm>
#include <cstring>
#include <string_view>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "emulator/nic/protection_table.hpp"
#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

// The node's one NIC, under its own name and under the names VIA
// programs of the common providers open (M-VIA's Ethernet and loopback
// devices, Giganet cLAN's first adapter).
bool is_device_name(std::string_view name) {
  for (const std::string_view known : {"nic0", "/dev/via_eth0", "/dev/via_lo", "/dev/clanvi0"})
    if (name == known)
      return true;
  return false;
}

// Everything opened through one NIC handle, released in reverse order of
// dependence: connections, VIs, completion queues, memory, tags.
void close_nic(NodeDriver& d, Token nic) {
  std::vector<Token> doomed;
  for (const auto& [token, conn] : d.conns)
    if (conn->nic == nic)
      doomed.push_back(token);
  for (const Token token : doomed) {
    d.session().connections().reject(d.conns.find_token(token)->request);
    d.conns.erase(token);
  }
  doomed.clear();
  for (const auto& [token, vi] : d.vis)
    if (vi->nic == nic)
      doomed.push_back(token);
  for (const Token token : doomed) {
    ViObject& vi = *d.vis.find_token(token);
    if (vi.pending)
      d.session().connections().cancel(vi.pending);
    if (vi.state == VIP_STATE_CONNECTED || vi.state == VIP_STATE_ERROR)
      d.disconnect(vi);
    d.release(vi);
    d.write_vi(vi, VIA_VI_FREE);
    d.slots[vi.slot] = 0;
    d.vis.erase(token);
  }
  doomed.clear();
  for (const auto& [token, cq] : d.cqs)
    if (cq->nic == nic)
      doomed.push_back(token);
  for (const Token token : doomed)
    d.cqs.erase(token);
  for (auto it = d.regions.begin(); it != d.regions.end();) {
    if (it->second.nic != nic) {
      ++it;
      continue;
    }
    d.protection().remove(it->first);
    it = d.regions.erase(it);
  }
  doomed.clear();
  for (const auto& [token, ptag] : d.ptags)
    if (ptag->nic == nic)
      doomed.push_back(token);
  for (const Token token : doomed)
    d.ptags.erase(token);
  d.nics.erase(nic);
}

} // namespace

VIP_RETURN VipOpenNic(const VIP_CHAR* DeviceName, VIP_NIC_HANDLE* NicHandle) {
  return vipl_call([&](NodeDriver& d) {
    if (!DeviceName || !NicHandle)
      return VIP_INVALID_PARAMETER;
    if (!is_device_name(DeviceName))
      return VIP_INVALID_PARAMETER;
    // Firmware without a VIA configuration block is no VIA provider.
    if (!d.configure_nic())
      return VIP_ERROR_RESOURCE;
    const NicObject& nic = d.nics.add(d.mint(HandleKind::nic));
    *NicHandle = handle_of(nic.token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipCloseNic(VIP_NIC_HANDLE NicHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic)
      return VIP_INVALID_PARAMETER;
    close_nic(d, nic->token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipQueryNic(VIP_NIC_HANDLE NicHandle, VIP_NIC_ATTRIBUTES* Attrs) {
  return vipl_call([&](NodeDriver& d) {
    if (!d.nics.find(NicHandle) || !Attrs)
      return VIP_INVALID_PARAMETER;
    VIP_NIC_ATTRIBUTES a{};
    std::strncpy(a.Name, "nic0", sizeof a.Name - 1);
    a.HardwareVersion = 7; // a LANai 7 class card
    a.ProviderVersion = 1;
    a.NicAddressLen = host_address_bytes;
    a.LocalNicAddress = d.address().data();
    a.ThreadSafe = VIP_FALSE;
    a.MaxDiscriminatorLen = max_discriminator_bytes;
    a.MaxRegisterBytes = ~VIP_ULONG{0};
    a.MaxRegisterRegions = lanai::nic::ProtectionTable::max_regions;
    a.MaxRegisterBlockBytes = ~VIP_ULONG{0};
    a.MaxVI = VIA_MAX_VI;
    a.MaxDescriptorsPerQueue = VIA_QUEUE_DEPTH;
    a.MaxSegmentsPerDesc = VIA_MAX_SEGMENTS;
    a.MaxCQ = max_cqs;
    a.MaxCQEntries = max_cq_entries;
    a.MaxTransferSize = VIA_MAX_TRANSFER;
    a.NativeMTU = VIA_MAX_TRANSFER;
    a.MaxPtags = max_ptags;
    a.ReliabilityLevelSupport =
        VIP_SERVICE_UNRELIABLE | VIP_SERVICE_RELIABLE_DELIVERY | VIP_SERVICE_RELIABLE_RECEPTION;
    // The reliability levels RDMA reads are offered on: the reliable ones,
    // when the firmware does them.
    a.RDMAReadSupport = d.firmware_features() & VIA_FEATURE_RDMA_READ
                            ? VIP_SERVICE_RELIABLE_DELIVERY | VIP_SERVICE_RELIABLE_RECEPTION
                            : 0;
    *Attrs = a;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipErrorCallback(VIP_NIC_HANDLE NicHandle, VIP_PVOID Context,
                            VIP_ERROR_HANDLER Handler) {
  return vipl_call([&](NodeDriver& d) {
    NicObject* nic = d.nics.find(NicHandle);
    if (!nic)
      return VIP_INVALID_PARAMETER;
    nic->handler = Handler;
    nic->context = Context;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipQuerySystemManagementInfo(VIP_NIC_HANDLE NicHandle, VIP_ULONG InfoType,
                                        VIP_PVOID SysManInfo) {
  return vipl_call([&](NodeDriver& d) {
    if (!d.nics.find(NicHandle) || !SysManInfo)
      return VIP_INVALID_PARAMETER;
    if (InfoType != LANAI_EMU_SMI_NIC_COUNTERS)
      return VIP_ERROR_NOT_SUPPORTED;
    const auto& stats = d.session().cluster().stats();
    const auto counter = [&](std::string_view name) -> std::uint64_t {
      const auto* stat = stats.find(fmt::format("node{}.{}", d.node(), name));
      const auto* c = stat ? std::get_if<lanai::kernel::Counter>(stat) : nullptr;
      return c ? c->value() : 0;
    };
    auto& out = *static_cast<LANAI_EMU_NIC_COUNTERS*>(SysManInfo);
    out.doorbells_rung = counter("doorbell.rung");
    out.doorbell_overflows = counter("doorbell.overflows");
    out.hdma_requests = counter("hdma.requests");
    out.hdma_bytes_to_sram = counter("hdma.bytes_to_sram");
    out.hdma_bytes_to_host = counter("hdma.bytes_to_host");
    out.hdma_protection_errors = counter("hdma.protection_errors");
    out.packets_sent = counter("nsdma.packets");
    out.bytes_sent = counter("nsdma.bytes");
    out.packets_received = counter("nrdma.packets");
    out.bytes_received = counter("nrdma.bytes");
    return VIP_SUCCESS;
  });
}
