// A unidirectional Myrinet link: a serial channel of fixed bandwidth and
// propagation delay with stop/go flow control. Packets are carried whole but
// timed cut-through: the head arrives before the tail has been sent.
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/link_faults.hpp"
#include "emulator/wire/worm.hpp"

#include <functional>
#include <memory>
#include <string>

namespace lanai::wire {

class Link;

struct LinkTiming {
  kernel::Bandwidth bandwidth = kernel::Bandwidth::megabytes_per_second(160.0);
  kernel::SimTime latency = kernel::nanoseconds(50);

  static LinkTiming from_profile(const profile::WireParams& wire);
};

// The far end. It takes the head now or later by setting the last hop's
// `accepted` time and finishing the worm (destination) or forwarding it
// (switch); until then the packet waits in the link, which is STOP.
class LinkReceiver {
public:
  virtual void on_head_arrived(Link& link, std::shared_ptr<Worm> worm) = 0;
  // How far the far end lets a tail run ahead of its forwarded copy: a
  // switch buffers what arrives during its routing delay, an interface
  // takes the whole packet.
  virtual kernel::SimTime routing_slack() const { return kernel::SimTime::zero(); }
  // Which processors taking a head may change what they read (an
  // interface, its card's; a switch only routes): see kernel::EventReach.
  virtual kernel::EventReach reach() const { return kernel::EventReach::anything; }

protected:
  ~LinkReceiver() = default;
};

// The near end, told when the tail has left so the link can carry another.
class LinkSender {
public:
  virtual void on_link_released(Link& link, const Worm& worm) = 0;
  // Which processors hearing of a release may change what they read.
  virtual kernel::EventReach reach() const { return kernel::EventReach::anything; }

protected:
  ~LinkSender() = default;
};

class Link {
public:
  // Stats: <name>.packets, <name>.bytes (counted when the tail has left),
  // <name>.busy (1 from the start of a transmission until its release).
  Link(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name, LinkTiming timing);
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  void connect_sender(LinkSender& sender) { sender_ = &sender; }
  void connect_receiver(LinkReceiver& receiver) { receiver_ = &receiver; }

  const std::string& name() const { return name_; }
  const LinkTiming& timing() const { return timing_; }
  // From the start of a transmission until its tail has left.
  bool busy() const { return busy_; }

  // Starts sending `worm`'s packet now; its head reaches the far end after
  // latency + one byte time. Sending on a busy or unconnected link is a
  // wiring bug and throws std::logic_error.
  void transmit(std::shared_ptr<Worm> worm);

  // Called once the worm is resolved: the tail leaves at `when` (>= now),
  // after which the link is free and the sender is told.
  void release_at(kernel::SimTime when, std::shared_ptr<Worm> worm);

  // Fault injection for tests: runs on each packet as it enters the link.
  void set_in_flight_hook(std::function<void(Packet&)> hook) { hook_ = std::move(hook); }
  // The profile's line faults: a packet the link drops still takes its
  // time on the wire, but the far end never sees it.
  void set_faults(std::unique_ptr<LinkFaults> faults) { faults_ = std::move(faults); }

private:
  kernel::Kernel& kernel_;
  std::string name_;
  LinkTiming timing_;
  LinkSender* sender_ = nullptr;
  LinkReceiver* receiver_ = nullptr;
  bool busy_ = false;
  std::function<void(Packet&)> hook_;
  std::unique_ptr<LinkFaults> faults_;
  kernel::Counter& packets_;
  kernel::Counter& bytes_;
  kernel::TimeWeighted& busy_level_;
};

} // namespace lanai::wire
