// The name service: node K is "nodeK", its address the 2-byte node number.
// Names resolve locally, as from a hosts file every node shares.
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>

#include "hostlib/vipl/net_address.hpp"
#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

// The node a name stands for, or -1.
long node_named(std::string_view name, std::size_t nodes) {
  constexpr std::string_view prefix = "node";
  if (!name.starts_with(prefix) || name.size() == prefix.size())
    return -1;
  const std::string_view digits = name.substr(prefix.size());
  // One spelling per node: no sign, no leading zeros.
  if (digits.size() > 1 && digits.front() == '0')
    return -1;
  unsigned long node = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), node);
  if (error != std::errc{} || end != digits.data() + digits.size() || node >= nodes)
    return -1;
  return static_cast<long>(node);
}

} // namespace

VIP_RETURN VipNSInit(VIP_NIC_HANDLE NicHandle, VIP_PVOID NSInitInfo) {
  (void)NSInitInfo;
  return vipl_call(
      [&](NodeDriver& d) { return d.nics.find(NicHandle) ? VIP_SUCCESS : VIP_INVALID_PARAMETER; });
}

VIP_RETURN VipNSGetHostByName(VIP_NIC_HANDLE NicHandle, VIP_CHAR* Name, VIP_NET_ADDRESS* Address,
                              VIP_ULONG NameIndex) {
  return vipl_call([&](NodeDriver& d) {
    if (!d.nics.find(NicHandle) || !Name || !Address)
      return VIP_INVALID_PARAMETER;
    const long node = node_named(Name, d.nodes());
    if (node < 0 || NameIndex != 0)
      return VIP_ERROR_NAMESERVICE;
    // Only the host part: the discriminator is the caller's to set.
    write_host_address(Address, static_cast<std::uint32_t>(node));
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipNSGetHostByAddr(VIP_NIC_HANDLE NicHandle, VIP_NET_ADDRESS* Address, VIP_CHAR* Name,
                              VIP_ULONG* NameLen) {
  return vipl_call([&](NodeDriver& d) {
    NetAddress parsed;
    if (!d.nics.find(NicHandle) || !Name || !NameLen || !read_address(Address, parsed))
      return VIP_INVALID_PARAMETER;
    if (parsed.node >= d.nodes())
      return VIP_ERROR_NAMESERVICE;
    const std::string name = "node" + std::to_string(parsed.node);
    if (*NameLen < name.size() + 1)
      return VIP_ERROR_RESOURCE;
    std::memcpy(Name, name.c_str(), name.size() + 1);
    *NameLen = name.size() + 1;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipNSShutdown(VIP_NIC_HANDLE NicHandle) {
  return vipl_call(
      [&](NodeDriver& d) { return d.nics.find(NicHandle) ? VIP_SUCCESS : VIP_INVALID_PARAMETER; });
}
