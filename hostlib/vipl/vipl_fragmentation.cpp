// lanai_emu_set_fragmentation: a VI's fragmentation policy, checked and
// written to its entry in the NIC's configuration block.
#include <fmt/format.h>

#include "hostlib/vipl/vipl_call.hpp"

using namespace lanai::vipl;

namespace {

// Why the firmware could not follow `how` on a VI with this MTU; "" if it can.
std::string refusal(const LANAI_EMU_FRAGMENTATION& how, VIP_ULONG mtu) {
  if (how.policy >= VIA_FRAG_POLICIES)
    return fmt::format("unknown fragmentation policy {} (known: 0 none, 1 static, "
                       "2 fixed-optimal, 3 ramp-up, 4 adaptive)",
                       how.policy);
  if (how.policy == VIA_FRAG_STATIC && how.bytes == 0)
    return "static fragmentation needs a fragment size above 0 bytes";
  if (how.bytes > mtu)
    return fmt::format("fragment size {} bytes is above the VI's MaxTransferSize {}", how.bytes,
                       mtu);
  if ((how.policy == VIA_FRAG_FIXED_OPTIMAL || how.policy == VIA_FRAG_ADAPTIVE) &&
      how.param[0] == 0)
    return "fixed-optimal and adaptive fragmentation need the bottleneck's overhead g_b > 0 ns";
  if (how.policy == VIA_FRAG_RAMP_UP && how.param[1] == 0)
    return "ramp-up fragmentation needs the first stage's cost G_0 > 0 ns per KB";
  return {};
}

} // namespace

VIP_RETURN lanai_emu_set_fragmentation(VIP_VI_HANDLE vi_handle,
                                       const LANAI_EMU_FRAGMENTATION* how) {
  return vipl_call([&](NodeDriver& d) {
    ViObject* vi = d.vis.find(vi_handle);
    if (!vi || !how)
      return VIP_INVALID_PARAMETER;
    if (const std::string why = refusal(*how, vi->attributes.MaxTransferSize); !why.empty()) {
      d.set_last_error(fmt::format("node{}: {}", d.node(), why));
      return VIP_INVALID_PARAMETER;
    }
    vi->fragmentation = *how;
    d.write_fragmentation(*vi);
    return VIP_SUCCESS;
  });
}
