// lanai_emu_set_flow_control: a VI's credit flow control, switched while
// nothing is posted on it, so that every descriptor of its connection is
// counted alike on both cards.
#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

std::uint32_t flow_controlled(const NodeDriver& d) {
  std::uint32_t n = 0;
  for (const auto& [token, vi] : d.vis)
    n += vi->flow_control ? 1u : 0u;
  return n;
}

} // namespace

VIP_RETURN lanai_emu_set_flow_control(VIP_VI_HANDLE vi_handle, VIP_BOOLEAN on) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(vi_handle);
    if (!vi)
      return VIP_INVALID_PARAMETER;
    const bool wanted = on != VIP_FALSE;
    if (wanted == vi->flow_control)
      return VIP_SUCCESS;
    if ((d.firmware_features() & VIA_FEATURE_FLOW_CONTROL) == 0) {
      d.set_last_error(fmt::format("node{}: the firmware has no credit flow control", d.node()));
      return VIP_ERROR_NOT_SUPPORTED;
    }
    if (vi->state != VIP_STATE_IDLE || !vi->send.posted.empty() || !vi->recv.posted.empty()) {
      d.set_last_error(
          fmt::format("node{}: flow control is set on an idle VI with nothing posted", d.node()));
      return VIP_INVALID_STATE;
    }
    if (wanted && flow_controlled(d) >= VIA_MAX_FLOW_VI) {
      d.set_last_error(
          fmt::format("node{}: {} VIs have flow control already, as many as the card holds",
                      d.node(), VIA_MAX_FLOW_VI));
      return VIP_ERROR_RESOURCE;
    }
    vi->flow_control = wanted;
    return VIP_SUCCESS;
  });
}
