// VI creation, destruction, query and attribute changes. A VI is a slot in
// the NIC's configuration block; its attributes (tag, reliability, MTU and
// QoS tick) are written there for the firmware to read.
#include <fmt/format.h>

#include "emulator/kernel/sim_time.hpp"
#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

struct ViSettings {
  const PtagObject* ptag = nullptr;
  bool qos = false;
  VIP_QOS_REQUEST request{};
  std::uint64_t vtick = ~std::uint64_t{0};
};

bool one_service_level(VIP_RELIABILITY_LEVEL level) {
  return level == VIP_SERVICE_UNRELIABLE || level == VIP_SERVICE_RELIABLE_DELIVERY ||
         level == VIP_SERVICE_RELIABLE_RECEPTION;
}

// VirtualClock's tick: the ideal time between two MTU-sized packets at the
// requested rate, in LANai cycles, rounded up so the rate is never exceeded.
std::uint64_t vtick_cycles(const lanai::profile::HardwareProfile& profile, VIP_ULONG mtu,
                           VIP_ULONG bytes_per_second) {
  const auto clock = lanai::kernel::Frequency::megahertz(profile.lanai.clock_mhz).hz();
  const auto product = static_cast<lanai::kernel::detail::Uint128>(mtu) * clock;
  return static_cast<std::uint64_t>((product + bytes_per_second - 1) / bytes_per_second);
}

VIP_RETURN check_attributes(NodeDriver& d, Token nic, const VIP_VI_ATTRIBUTES& a, ViSettings& out) {
  if (!one_service_level(a.ReliabilityLevel))
    return VIP_INVALID_RELIABILITY_LEVEL;
  if (a.MaxTransferSize == 0 || a.MaxTransferSize > VIA_MAX_TRANSFER)
    return VIP_INVALID_MTU;
  out.ptag = d.ptags.find(a.Ptag);
  if (!out.ptag || out.ptag->nic != nic)
    return VIP_INVALID_PTAG;
  if (a.EnableRdmaRead) {
    if ((d.firmware_features() & VIA_FEATURE_RDMA_READ) == 0) {
      d.set_last_error(fmt::format("node{}: the firmware does not do RDMA reads", d.node()));
      return VIP_ERROR_NOT_SUPPORTED;
    }
    // VIA offers RDMA reads on reliable connections only.
    if (a.ReliabilityLevel == VIP_SERVICE_UNRELIABLE) {
      d.set_last_error(fmt::format("node{}: RDMA reads need a reliable VI", d.node()));
      return VIP_INVALID_RDMAREAD;
    }
  }
  if (a.EnableRdmaWrite && (d.firmware_features() & VIA_FEATURE_RDMA_WRITE) == 0) {
    d.set_last_error(fmt::format("node{}: the firmware does not do RDMA writes", d.node()));
    return VIP_ERROR_NOT_SUPPORTED;
  }
  if (a.QoS && a.QoS->BandwidthBytesPerSec != 0) {
    const double link = d.profile().wire.link_mbytes_per_s * 1e6;
    if (static_cast<double>(a.QoS->BandwidthBytesPerSec) > link) {
      d.set_last_error(fmt::format("node{}: {} B/s requested > link bandwidth {:.0f} B/s", d.node(),
                                   a.QoS->BandwidthBytesPerSec, link));
      return VIP_INVALID_QOS;
    }
    out.qos = true;
    out.request = *a.QoS;
    out.vtick = vtick_cycles(d.profile(), a.MaxTransferSize, a.QoS->BandwidthBytesPerSec);
  }
  return VIP_SUCCESS;
}

void apply(ViObject& vi, const VIP_VI_ATTRIBUTES& a, const ViSettings& settings) {
  vi.attributes = a;
  vi.attributes.EnableRdmaRead = a.EnableRdmaRead ? VIP_TRUE : VIP_FALSE;
  vi.attributes.EnableRdmaWrite = a.EnableRdmaWrite ? VIP_TRUE : VIP_FALSE;
  vi.qos = settings.request;
  vi.attributes.QoS = settings.qos ? &vi.qos : nullptr;
  vi.vtick = settings.vtick;
}

const CqObject* cq_of(NodeDriver& d, Token nic, VIP_CQ_HANDLE handle) {
  const CqObject* cq = d.cqs.find(handle);
  return cq && cq->nic == nic ? cq : nullptr;
}

} // namespace

VIP_RETURN VipCreateVi(VIP_NIC_HANDLE NicHandle, VIP_VI_ATTRIBUTES* ViAttribs,
                       VIP_CQ_HANDLE SendCQHandle, VIP_CQ_HANDLE RecvCQHandle,
                       VIP_VI_HANDLE* ViHandle) {
  return vipl_call([&](NodeDriver& d) {
    const NicObject* nic = d.nics.find(NicHandle);
    if (!nic || !ViAttribs || !ViHandle)
      return VIP_INVALID_PARAMETER;
    ViSettings settings;
    if (const VIP_RETURN r = check_attributes(d, nic->token, *ViAttribs, settings);
        r != VIP_SUCCESS)
      return r;
    const CqObject* send_cq = cq_of(d, nic->token, SendCQHandle);
    const CqObject* recv_cq = cq_of(d, nic->token, RecvCQHandle);
    if ((SendCQHandle && !send_cq) || (RecvCQHandle && !recv_cq))
      return VIP_INVALID_PARAMETER;
    std::uint32_t slot = 0;
    while (slot < VIA_MAX_VI && d.slots[slot] != 0)
      ++slot;
    if (slot == VIA_MAX_VI)
      return VIP_ERROR_RESOURCE;
    // Admission control: only this node's outgoing link is known here.
    const std::uint64_t rate = settings.qos ? settings.request.BandwidthBytesPerSec : 0;
    if (d.admission_on() && !d.reserve(false, rate))
      return VIP_INVALID_QOS;

    ViObject& vi = d.vis.add(d.mint(HandleKind::vi));
    if (d.admission_on())
      vi.tx_reserved = rate;
    vi.nic = nic->token;
    vi.slot = slot;
    apply(vi, *ViAttribs, settings);
    if (send_cq) {
      vi.send.cq = send_cq->token;
      ++d.cqs.find_token(send_cq->token)->attached;
    }
    if (recv_cq) {
      vi.recv.cq = recv_cq->token;
      ++d.cqs.find_token(recv_cq->token)->attached;
    }
    d.slots[slot] = vi.token;
    *ViHandle = handle_of(vi.token);
    d.write_vi(vi, VIA_VI_IDLE);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipDestroyVi(VIP_VI_HANDLE ViHandle) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(ViHandle);
    if (!vi)
      return VIP_INVALID_PARAMETER;
    if (vi->state != VIP_STATE_IDLE || !vi->send.posted.empty() || !vi->recv.posted.empty())
      return VIP_INVALID_STATE;
    d.release(*vi);
    d.slots[vi->slot] = 0;
    const Token token = vi->token;
    d.write_vi(*vi, VIA_VI_FREE);
    d.vis.erase(token);
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipQueryVi(VIP_VI_HANDLE ViHandle, VIP_VI_STATE* State, VIP_VI_ATTRIBUTES* Attrs,
                      VIP_BOOLEAN* SendQueueEmpty, VIP_BOOLEAN* RecvQueueEmpty) {
  return vipl_call([&](NodeDriver& d) {
    const ViObject* vi = d.vis.find(ViHandle);
    if (!vi || !State || !Attrs || !SendQueueEmpty || !RecvQueueEmpty)
      return VIP_INVALID_PARAMETER;
    *State = vi->state;
    *Attrs = vi->attributes;
    *SendQueueEmpty = vi->send.posted.empty() ? VIP_TRUE : VIP_FALSE;
    *RecvQueueEmpty = vi->recv.posted.empty() ? VIP_TRUE : VIP_FALSE;
    return VIP_SUCCESS;
  });
}

VIP_RETURN VipSetViAttributes(VIP_VI_HANDLE ViHandle, VIP_VI_ATTRIBUTES* Attrs) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(ViHandle);
    if (!vi || !Attrs)
      return VIP_INVALID_PARAMETER;
    // The peer agreed to the attributes the VI was connected with.
    if (vi->state != VIP_STATE_IDLE)
      return VIP_INVALID_STATE;
    ViSettings settings;
    if (const VIP_RETURN r = check_attributes(d, vi->nic, *Attrs, settings); r != VIP_SUCCESS)
      return r;
    // The new rate replaces the old one on the outgoing link; if it does
    // not fit, the old reservation stays.
    const std::uint64_t rate = settings.qos ? settings.request.BandwidthBytesPerSec : 0;
    d.unreserve(false, vi->tx_reserved);
    if (d.admission_on() && !d.reserve(false, rate)) {
      d.reserve(false, vi->tx_reserved);
      return VIP_INVALID_QOS;
    }
    vi->tx_reserved = d.admission_on() ? rate : 0;
    apply(*vi, *Attrs, settings);
    d.write_vi(*vi, VIA_VI_IDLE);
    return VIP_SUCCESS;
  });
}
