// Asynchronous errors: the firmware raises a host interrupt carrying a
// VIA_INTR_* word; the driver turns it into a VIA error descriptor and runs
// the program's error callback from the program itself, never from inside
// the card's event, so the callback may call the VIPL.
#include <cstdio>
#include <string_view>

#include <fmt/format.h>

#include "hostlib/driver/node_driver.hpp"

namespace lanai::vipl {

namespace {

std::string_view error_name(VIP_ERROR_CODE code) {
  switch (code) {
  case VIP_ERROR_POST_DESC:
    return "VIP_ERROR_POST_DESC";
  case VIP_ERROR_CONN_LOST:
    return "VIP_ERROR_CONN_LOST";
  case VIP_ERROR_RECVQ_EMPTY:
    return "VIP_ERROR_RECVQ_EMPTY";
  case VIP_ERROR_VI_OVERRUN:
    return "VIP_ERROR_VI_OVERRUN";
  case VIP_ERROR_RDMAW_PROT:
    return "VIP_ERROR_RDMAW_PROT";
  case VIP_ERROR_RDMAW_DATA:
    return "VIP_ERROR_RDMAW_DATA";
  case VIP_ERROR_RDMAW_ABORT:
    return "VIP_ERROR_RDMAW_ABORT";
  case VIP_ERROR_RDMAR_PROT:
    return "VIP_ERROR_RDMAR_PROT";
  case VIP_ERROR_COMP_PROT:
    return "VIP_ERROR_COMP_PROT";
  case VIP_ERROR_RDMA_TRANSPORT:
    return "VIP_ERROR_RDMA_TRANSPORT";
  case VIP_ERROR_CATASTROPHIC:
    return "VIP_ERROR_CATASTROPHIC";
  }
  return "unknown VIA error";
}

bool reliable(const ViObject& vi) {
  return vi.attributes.ReliabilityLevel != VIP_SERVICE_UNRELIABLE;
}

} // namespace

Token NodeDriver::first_nic() const { return nics.begin() == nics.end() ? 0 : nics.begin()->first; }

void NodeDriver::on_interrupt(std::uint32_t word) {
  const std::uint32_t code = VIA_INTR_CODE(word);
  const std::uint32_t slot = VIA_INTR_VI(word);
  ViObject* vi = slot < VIA_MAX_VI ? vis.find_token(slots[slot]) : nullptr;
  PendingError error;
  if (vi) {
    error.nic = vi->nic;
    error.vi = vi->token;
    error.resource = VIP_RESOURCE_VI;
  } else {
    error.nic = first_nic();
    error.resource = VIP_RESOURCE_NIC;
  }
  switch (code) {
  case VIA_INTR_RECVQ_EMPTY:
    error.code = VIP_ERROR_RECVQ_EMPTY;
    // A reliable VI cannot lose a message and stay usable.
    if (vi && reliable(*vi) && vi->state == VIP_STATE_CONNECTED)
      vi->state = VIP_STATE_ERROR;
    break;
  case VIA_INTR_DOORBELL_LOST:
    // Names the VI when the firmware knows whose post was lost (0xFFFF,
    // no VI, when the doorbell FIFO itself overflowed).
    error.code = VIP_ERROR_POST_DESC;
    break;
  case VIA_INTR_BAD_PACKET:
    if (vi && reliable(*vi)) {
      error.code = VIP_ERROR_CONN_LOST;
      if (vi->state == VIP_STATE_CONNECTED)
        vi->state = VIP_STATE_ERROR;
    } else {
      error.code = VIP_ERROR_RDMA_TRANSPORT;
    }
    break;
  case VIA_INTR_RDMAW_PROT:
    // The peer's RDMA write named memory this VI may not write: nothing
    // was written. A reliable connection cannot go on past the lost data.
    error.code = VIP_ERROR_RDMAW_PROT;
    if (vi && reliable(*vi) && vi->state == VIP_STATE_CONNECTED)
      vi->state = VIP_STATE_ERROR;
    break;
  case VIA_INTR_RDMAR_PROT:
    // The target refused this VI's RDMA read (the descriptor says so too):
    // as with a refused write, a reliable connection cannot go on.
    error.code = VIP_ERROR_RDMAR_PROT;
    if (vi && reliable(*vi) && vi->state == VIP_STATE_CONNECTED)
      vi->state = VIP_STATE_ERROR;
    break;
  case VIA_INTR_CONN_LOST:
    // The card gave up on the peer (retry limit): as VIA says of a lost
    // connection, the VI is broken and what is still posted on it
    // completes with a transport error.
    error.code = VIP_ERROR_CONN_LOST;
    if (vi && vi->state == VIP_STATE_CONNECTED) {
      vi->state = VIP_STATE_ERROR;
      flush(*vi, VIP_STATUS_TRANSPORT_ERROR);
    }
    break;
  default:
    error.code = VIP_ERROR_CATASTROPHIC;
    break;
  }
  raise(error);
}

void NodeDriver::raise(const PendingError& error) {
  errors_.push_back(error);
  host_.notify();
}

void NodeDriver::deliver_errors() {
  if (!may_deliver())
    return;
  const Delivering guard(delivering_);
  while (!errors_.empty()) {
    const PendingError error = errors_.front();
    errors_.pop_front();
    const NicObject* nic = nics.find_token(error.nic);
    if (!nic)
      continue; // closed since: nobody left to tell
    VIP_ERROR_DESCRIPTOR descriptor{};
    descriptor.NicHandle = handle_of(error.nic);
    descriptor.ViHandle = error.vi ? handle_of(error.vi) : nullptr;
    descriptor.CQHandle = error.cq ? handle_of(error.cq) : nullptr;
    descriptor.DescriptorPtr = nullptr;
    descriptor.OpCode = 0;
    descriptor.ResourceCode = error.resource;
    descriptor.ErrorCode = error.code;
    if (nic->handler) {
      nic->handler(nic->context, &descriptor);
      continue;
    }
    std::string where = "the NIC";
    if (const ViObject* vi = vis.find_token(error.vi))
      where = fmt::format("vi {}", vi->slot);
    else if (error.cq)
      where = "a completion queue";
    fmt::print(stderr, "node{}: VIA error {} on {}\n", node_, error_name(error.code), where);
  }
}

} // namespace lanai::vipl
