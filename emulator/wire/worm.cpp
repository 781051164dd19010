// Tail timing of a packet across its hops once its head has found a taker.
#include "emulator/wire/worm.hpp"

#include "emulator/wire/link.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanai::wire {

using kernel::SimTime;

SimTime Worm::resolve(SimTime accepted) {
  if (resolved_)
    throw std::logic_error("lanai::wire: packet resolved twice");
  if (hops_.empty())
    throw std::logic_error("lanai::wire: packet resolved before any hop");
  resolved_ = true;
  hops_.back().accepted = accepted;

  // Forward: each tail as early as its own link and its supply allow.
  for (std::size_t k = 0; k < hops_.size(); ++k) {
    Hop& h = hops_[k];
    SimTime t = std::max(h.accepted + h.body_time - h.latency, h.accepted);
    if (k > 0)
      t = std::max(t, hops_[k - 1].tail_departure + hops_[k - 1].latency);
    h.tail_departure = t;
  }
  // Backward: a tail held downstream holds the upstream tails too.
  for (std::size_t k = hops_.size() - 1; k-- > 0;) {
    Hop& h = hops_[k];
    const Hop& next = hops_[k + 1];
    h.tail_departure = std::max(h.tail_departure, next.tail_departure - h.latency - h.slack_after);
  }
  return hops_.back().tail_departure + hops_.back().latency;
}

SimTime finish_worm(const std::shared_ptr<Worm>& worm, SimTime accepted) {
  const SimTime arrival = worm->resolve(accepted);
  // Decided only now, so a link cannot be handed back earlier than now even
  // where a short packet's tail had physically left it before: packet
  // granularity costs small packets some sender occupancy, never data time.
  for (const Hop& h : worm->hops())
    h.link->release_at(std::max(h.tail_departure, accepted), worm);
  return arrival;
}

} // namespace lanai::wire
