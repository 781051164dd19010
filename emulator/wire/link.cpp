// Link transmission: head timing at the start, release when the tail has gone.
#include "emulator/wire/link.hpp"

#include <stdexcept>

namespace lanai::wire {

using kernel::SimTime;

LinkTiming LinkTiming::from_profile(const profile::WireParams& wire) {
  return LinkTiming{kernel::Bandwidth::megabytes_per_second(wire.link_mbytes_per_s),
                    kernel::nanoseconds(wire.link_latency_ns)};
}

Link::Link(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name,
           LinkTiming timing)
    : kernel_(kernel), name_(std::move(name)), timing_(timing),
      packets_(stats.counter(name_ + ".packets")), bytes_(stats.counter(name_ + ".bytes")),
      busy_level_(stats.time_weighted(name_ + ".busy")) {}

void Link::transmit(std::shared_ptr<Worm> worm) {
  if (!sender_ || !receiver_)
    throw std::logic_error("lanai::wire: link " + name_ + " not connected");
  if (busy_)
    throw std::logic_error("lanai::wire: link " + name_ + " is already sending");
  busy_ = true;
  busy_level_.set(kernel_.now(), 1.0);
  if (hook_)
    hook_(worm->packet());
  const bool dropped =
      faults_ && faults_->strike(kernel_.now(), worm->packet()) == LinkFaults::Fate::drop;

  // The head byte is the next route byte, or the first payload byte when
  // the route is spent: either way, one byte time behind the start.
  const std::uint64_t bytes = worm->packet().wire_bytes();
  const SimTime head = timing_.latency + timing_.bandwidth.transfer_time(1);
  Hop hop;
  hop.link = this;
  hop.start = kernel_.now();
  hop.head_arrival = kernel_.now() + head;
  hop.latency = timing_.latency;
  hop.wire_bytes = bytes;
  hop.body_time = timing_.bandwidth.transfer_time(bytes) - timing_.bandwidth.transfer_time(1);
  hop.slack_after = receiver_->routing_slack();
  worm->add_hop(hop);
  kernel_.schedule_at(
      hop.head_arrival,
      [this, worm, dropped] {
        // A dropped packet streams into nothing: the far end neither
        // holds it up nor sees it.
        if (dropped)
          finish_worm(worm, kernel_.now());
        else
          receiver_->on_head_arrived(*this, worm);
      },
      "wire.head_arrival", receiver_->reach());
}

void Link::release_at(SimTime when, std::shared_ptr<Worm> worm) {
  kernel_.schedule_at(
      when,
      [this, worm] {
        // A route never crosses the same link twice.
        for (const Hop& h : worm->hops())
          if (h.link == this)
            bytes_.add(h.wire_bytes);
        busy_ = false;
        busy_level_.set(kernel_.now(), 0.0);
        packets_.add();
        sender_->on_link_released(*this, *worm);
      },
      "wire.tail_departure", sender_->reach());
}

} // namespace lanai::wire
