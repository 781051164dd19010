// A packet in flight through the wormhole fabric: the hops its head has
// taken so far, and, once its head is accepted at the destination, the time
// its tail leaves each hop. Models Myrinet's cut-through with stop/go flow.
#pragma once

#include "emulator/kernel/sim_time.hpp"
#include "emulator/wire/packet.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace lanai::wire {

class Link;

// One link crossed by the packet. Times are absolute.
struct Hop {
  Link* link = nullptr;
  kernel::SimTime start;          // transmission began at the sending end
  kernel::SimTime head_arrival;   // head byte reached the far end
  kernel::SimTime accepted;       // far end let the body flow (GO)
  kernel::SimTime latency;        // propagation delay of the link
  std::uint64_t wire_bytes = 0;   // remaining route + payload + trailer
  kernel::SimTime body_time;      // tail follows head by this when unimpeded
  kernel::SimTime slack_after;    // routing delay of the switch at the far end
  kernel::SimTime tail_departure; // tail left the sending end (set by resolve)
};

class Worm {
public:
  explicit Worm(Packet packet) : packet_(std::move(packet)) {
    hops_.reserve(typical_hops); // one allocation for the usual route
  }

  Packet& packet() { return packet_; }
  const Packet& packet() const { return packet_; }
  const std::vector<Hop>& hops() const { return hops_; }
  Hop& add_hop(const Hop& hop) {
    hops_.push_back(hop);
    return hops_.back();
  }
  Hop& last_hop() { return hops_.back(); }

  // Computes every hop's tail departure given that the destination (the far
  // end of the last hop) accepted the head at `accepted`, and returns when
  // the tail reaches the destination. The rules, per hop k:
  //   own_k = max(accepted_k + body_k - latency_k, accepted_k)
  //     (the body streams at link rate once the far end says GO, and the
  //     tail is not sent before the far end took the head);
  //   tail_k >= tail_{k-1} + latency_{k-1}
  //     (a switch cannot send a tail it has not received: cut-through);
  //   tail_k >= tail_{k+1} - latency_k - slack_after_k
  //     (a stalled downstream stalls upstream, less what the link and the
  //     switch's routing slack can hold: stop/go backpressure).
  kernel::SimTime resolve(kernel::SimTime accepted);

  bool resolved() const { return resolved_; }

private:
  // Links a packet crosses on the usual route: card, a switch or three, card.
  static constexpr std::size_t typical_hops = 4;

  Packet packet_;
  std::vector<Hop> hops_;
  bool resolved_ = false;
};

// Resolves `worm` accepted now at its destination and hands each link the
// time its tail leaves it. Returns the tail's arrival at the destination.
kernel::SimTime finish_worm(const std::shared_ptr<Worm>& worm, kernel::SimTime accepted);

} // namespace lanai::wire
