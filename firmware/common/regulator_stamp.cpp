// A delay-jitter regulator for VirtualClock (common/regulator.h). A VI
// sending at its reserved rate is stamped one Vtick after each doorbell
// (auxVC = max(posted, auxVC) + Vtick), so its stamps are spaced as the
// host posted. The regulator holds each reserved packet until its stamp
// plus the VI's delay, the most any of its recent packets reached the card
// past its stamp: packets then leave at the spacing of their stamps,
// whatever they met on the way (a best-effort read holding the host DMA,
// other events keeping the processor, doorbells noticed late in a burst).
// A packet later than the delay leaves at once and raises the delay to its
// lateness. The delay forgets by 1/64 a packet, so that it follows a
// lighter load back down (a release earlier than the spacing adds no
// jitter); no packet is released before its VI's previous one, so that its
// packets keep their order.
//
// The price is latency, a Vtick and the delay per message, and idle time:
// the card may hold a reserved packet while the wire is free. Best effort
// (stamped last) is never held. A reserved send is taken from its VI's
// ring kLeadMicroseconds before its stamp: long enough for its
// descriptor and data to be read behind a full host DMA queue, short
// enough that a slow VI's packet does not sit in a send buffer for most of
// its Vtick.
#include <lanai/via_abi.h>

#include "common/nic_config.h"
#include "common/regulator.h"

namespace via {

namespace {

constexpr uint32_t kLeadMicroseconds = 200u;
constexpr uint32_t kForget = 6u; // the delay loses 1/2^kForget a packet

uint64_t delay[VIA_MAX_VI];        // cycles past its stamp the VI's packets leave
uint64_t last_release[VIA_MAX_VI]; // no packet of a VI is released before an earlier one
uint32_t lead;                     // kLeadMicroseconds in cycles, once known

uint32_t lead_cycles() {
  if (lead == 0u)
    lead = nic_config().clock_khz * kLeadMicroseconds / 1000u;
  return lead;
}

} // namespace

uint64_t release_cycle(uint32_t vi, Stamp stamp, uint64_t now) {
  if (stamp == kStampLast)
    return 0u;
  uint64_t& d = delay[vi];
  d -= d >> kForget;
  if (now > stamp && now - stamp > d)
    d = now - stamp;
  uint64_t& last = last_release[vi];
  if (stamp + d > last)
    last = stamp + d;
  return last;
}

uint64_t take_cycle(uint32_t, Stamp stamp) {
  if (stamp == kStampLast)
    return 0u;
  // From the stamp, not the release: a send taken later because its VI's
  // packets came late would come later still.
  return stamp > lead_cycles() ? stamp - lead : 0u;
}

} // namespace via
