// The VI table of the configuration block: each VI's connection state,
// protection tag, reliability level, message size limit and peer, as the
// host driver set them, plus the one change firmware makes (breaking a VI).
// Firmware SDK: stable.
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

#include "common/nic_config.h"

namespace via {

inline bool vi_valid(uint32_t vi) { return vi < VIA_MAX_VI; }

// Callers check vi_valid() first: VI numbers come from the host and the wire.
inline volatile via_vi_config& vi_config(uint32_t vi) { return nic_config().vi[vi]; }

inline bool vi_connected(uint32_t vi) { return vi_config(vi).state == VIA_VI_CONNECTED; }

inline uint32_t vi_ptag(uint32_t vi) { return vi_config(vi).ptag; }
// True if the VI's peer may RDMA-write through it.
inline bool vi_takes_rdma_write(uint32_t vi) {
  return (vi_config(vi).access & VIA_ACCESS_RDMA_WRITE) != 0u;
}

// True if the VI's peer may RDMA-read through it.
inline bool vi_takes_rdma_read(uint32_t vi) {
  return (vi_config(vi).access & VIA_ACCESS_RDMA_READ) != 0u;
}

// A connected VI takes packets from its peer only.
inline bool vi_accepts_from(uint32_t vi, uint32_t node, uint32_t remote_vi) {
  volatile via_vi_config& config = vi_config(vi);
  return config.state == VIA_VI_CONNECTED && config.remote_node == node &&
         config.remote_vi == remote_vi;
}

// Reliable levels turn a lost message into a broken connection; an
// unreliable VI just loses it.
inline bool vi_reliable(uint32_t vi) {
  return (vi_config(vi).reliability &
          (VIP_SERVICE_RELIABLE_DELIVERY | VIP_SERVICE_RELIABLE_RECEPTION)) != 0u;
}

// Reliable Reception: a send completes once its data is in the peer's
// host memory, which the peer's card acknowledges.
inline bool vi_reliable_reception(uint32_t vi) {
  return (vi_config(vi).reliability & VIP_SERVICE_RELIABLE_RECEPTION) != 0u;
}

// The largest message a VI may send: its MTU, within what one packet carries.
inline uint32_t vi_max_message(uint32_t vi) {
  const uint32_t mtu = vi_config(vi).mtu;
  return mtu < VIA_MAX_TRANSFER ? mtu : VIA_MAX_TRANSFER;
}

// The host sees the state change and learns why from a host interrupt.
inline void vi_break(uint32_t vi) { vi_config(vi).state = VIA_VI_ERROR; }

} // namespace via
