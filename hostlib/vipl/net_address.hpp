// VIP_NET_ADDRESS as this provider fills it: a 2-byte host address (the
// node number, most significant byte first) followed by the discriminator.
#pragma once

#include <cstdint>

#include "hostlib/driver/connection_manager.hpp"
#include "vipl.h"

namespace lanai::vipl {

// False for a malformed address (wrong host address length, discriminator
// longer than the provider allows).
inline bool read_address(const VIP_NET_ADDRESS* address, NetAddress& out) {
  if (!address || address->HostAddressLen != host_address_bytes ||
      address->DiscriminatorLen > max_discriminator_bytes)
    return false;
  // The bytes run past the declared one-element array by design.
  const VIP_UCHAR* bytes = address->HostAddress;
  out.node = static_cast<std::uint32_t>(bytes[0]) << 8 | bytes[1];
  out.discriminator.assign(bytes + host_address_bytes,
                           bytes + host_address_bytes + address->DiscriminatorLen);
  return true;
}

inline void write_host_address(VIP_NET_ADDRESS* address, std::uint32_t node) {
  VIP_UCHAR* bytes = address->HostAddress;
  address->HostAddressLen = host_address_bytes;
  bytes[0] = static_cast<VIP_UCHAR>(node >> 8);
  bytes[1] = static_cast<VIP_UCHAR>(node);
}

inline void write_address(VIP_NET_ADDRESS* address, const NetAddress& in) {
  write_host_address(address, in.node);
  address->DiscriminatorLen = static_cast<VIP_USHORT>(in.discriminator.size());
  VIP_UCHAR* bytes = address->HostAddress + host_address_bytes;
  for (const std::uint8_t b : in.discriminator)
    *bytes++ = b;
}

} // namespace lanai::vipl
