// Protection tags and memory registration. A registered region enters the
// NIC's protection table with its tag; the host DMA engine then checks
// handle, tag and bounds of every transfer against it.
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

const PtagObject* ptag_of(NodeDriver& d, Token nic, VIP_PROTECTION_HANDLE handle) {
  const PtagObject* ptag = d.ptags.find(handle);
  return ptag && ptag->nic == nic ? ptag : nullptr;
}

// The region `handle` names, registered through `nic`, if `address` is its
// first byte (with `anywhere`: any byte of it); nullptr otherwise.
MemoryRegion* region_at(NodeDriver& d, Token nic, VIP_MEM_HANDLE handle, VIP_PVOID address,
                        bool anywhere) {
  const auto it = d.regions.find(handle);
  if (it == d.regions.end() || it->second.nic != nic)
    return nullptr;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  MemoryRegion& region = it->second;
  if (!anywhere)
    return at == region.address ? &region : nullptr;
  return at >= region.address && at - region.address < region.length ? &region : nullptr;
}

// Memory may be opened to RDMA reads only on a NIC whose firmware does them.
bool reads_offered(NodeDriver& d) {
  if (d.firmware_features() & VIA_FEATURE_RDMA_READ)
    return true;
  d.set_last_error(fmt::format("node{}: the firmware does not do RDMA reads", d.node()));
  return false;
}

} // namespace

VIP_RETURN VipCreatePtag(VIP_NIC_HANDLE NicHandle, VIP_PROTECTION_HANDLE* ProtectionTag) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic || !ProtectionTag)
      return VIP_INVALID_PARAMETER;
    if (d.ptags.size() >= max_ptags)
      return VIP_ERROR_RESOURCE;
    PtagObject& ptag = d.ptags.add(d.mint(HandleKind::ptag));
    ptag.nic = nic->token;
    ptag.number = d.next_ptag++;
    *ProtectionTag = handle_of(ptag.token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipDestroyPtag(VIP_NIC_HANDLE NicHandle, VIP_PROTECTION_HANDLE ProtectionTag) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic)
      return VIP_INVALID_PARAMETER;
    const PtagObject* ptag = ptag_of(d, nic->token, ProtectionTag);
    if (!ptag)
      return VIP_INVALID_PARAMETER;
    for (const auto& [token, vi] : d.vis)
      if (vi->attributes.Ptag == ProtectionTag)
        return VIP_INVALID_STATE;
    for (const auto& [handle, region] : d.regions)
      if (region.ptag == ptag->token)
        return VIP_INVALID_STATE;
    d.ptags.erase(ptag->token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipRegisterMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress, VIP_ULONG Length,
                          VIP_MEM_ATTRIBUTES* MemAttrs, VIP_MEM_HANDLE* MemHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic || !VirtualAddress || Length == 0 || !MemAttrs || !MemHandle)
      return VIP_INVALID_PARAMETER;
    const auto address = reinterpret_cast<std::uintptr_t>(VirtualAddress);
    if (Length > std::numeric_limits<std::uintptr_t>::max() - address)
      return VIP_INVALID_PARAMETER;
    const PtagObject* ptag = ptag_of(d, nic->token, MemAttrs->Ptag);
    if (!ptag)
      return VIP_INVALID_PTAG;
    if (MemAttrs->EnableRdmaRead && !reads_offered(d))
      return VIP_INVALID_RDMAREAD;

    MemoryRegion region;
    region.nic = nic->token;
    region.ptag = ptag->token;
    region.address = address;
    region.length = Length;
    region.rdma_write = MemAttrs->EnableRdmaWrite != VIP_FALSE;
    region.rdma_read = MemAttrs->EnableRdmaRead != VIP_FALSE;
    lanai::nic::Registration entry;
    entry.address = region.address;
    entry.length = region.length;
    entry.ptag = ptag->number;
    entry.rdma_write = region.rdma_write;
    entry.rdma_read = region.rdma_read;
    // Pinning and table update take their time before the region is usable.
    d.charge(d.costs().register_ns);
    std::uint32_t handle = 0;
    try {
      handle = d.protection().add(entry);
    } catch (const std::length_error&) {
      return VIP_ERROR_RESOURCE;
    }
    d.regions[handle] = region;
    *MemHandle = handle;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipDeregisterMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress,
                            VIP_MEM_HANDLE MemHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic || !region_at(d, nic->token, MemHandle, VirtualAddress, false))
      return VIP_INVALID_PARAMETER;
    // Gone from the NIC's table at once: a DMA after this fails its check.
    d.protection().remove(MemHandle);
    d.regions.erase(MemHandle);
    d.charge(d.costs().register_ns);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipSetMemAttributes(VIP_NIC_HANDLE NicHandle, VIP_PVOID Address,
                               VIP_MEM_HANDLE MemHandle, VIP_MEM_ATTRIBUTES* MemAttrs) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    MemoryRegion* found = nic ? region_at(d, nic->token, MemHandle, Address, false) : nullptr;
    if (!found || !MemAttrs)
      return VIP_INVALID_PARAMETER;
    const PtagObject* ptag = ptag_of(d, nic->token, MemAttrs->Ptag);
    if (!ptag)
      return VIP_INVALID_PTAG;
    if (MemAttrs->EnableRdmaRead && !reads_offered(d))
      return VIP_INVALID_RDMAREAD;
    MemoryRegion& region = *found;
    region.ptag = ptag->token;
    region.rdma_write = MemAttrs->EnableRdmaWrite != VIP_FALSE;
    region.rdma_read = MemAttrs->EnableRdmaRead != VIP_FALSE;
    // The NIC's table changes at once: a later DMA is checked against the
    // new tag.
    d.protection().change(MemHandle, ptag->number, region.rdma_write, region.rdma_read);
    d.charge(d.costs().register_ns);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipQueryMem(VIP_NIC_HANDLE NicHandle, VIP_PVOID VirtualAddress, VIP_MEM_HANDLE MemHandle,
                       VIP_MEM_ATTRIBUTES* MemAttrs) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    const MemoryRegion* region =
        nic ? region_at(d, nic->token, MemHandle, VirtualAddress, true) : nullptr;
    if (!region || !MemAttrs)
      return VIP_INVALID_PARAMETER;
    MemAttrs->Ptag = handle_of(region->ptag);
    MemAttrs->EnableRdmaWrite = region->rdma_write ? VIP_TRUE : VIP_FALSE;
    MemAttrs->EnableRdmaRead = region->rdma_read ? VIP_TRUE : VIP_FALSE;
    return VIP_SUCCESS;
  });
}
