// The far end of a link that takes every packet as its head arrives and
// keeps nothing: the rest of a network that never holds a sender back. A
// card whose port sends into one has a send path of its own whose packets
// leave, as in a model of the send side alone.
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/wire/link.hpp"

#include <memory>
#include <string>

namespace lanai::wire {

class Sink final : public LinkReceiver {
public:
  // Stats: <name>.packets and <name>.bytes (route, payload and trailer as
  // they arrive), counted as each head is taken.
  Sink(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name);
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  const std::string& name() const { return name_; }

  void on_head_arrived(Link& link, std::shared_ptr<Worm> worm) override;
  // Taking a head changes nothing a processor reads.
  kernel::EventReach reach() const override { return kernel::EventReach::not_processors; }

private:
  kernel::Kernel& kernel_;
  std::string name_;
  kernel::Counter& packets_;
  kernel::Counter& bytes_;
};

} // namespace lanai::wire
