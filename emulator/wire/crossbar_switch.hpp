// A Myrinet crossbar switch: N ports, source-routed (the head byte names the
// output and is consumed), cut-through, with a packet blocked in its input
// while its output is busy (wormhole head-of-line blocking).
#pragma once

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/wire/link.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace lanai::wire {

class CrossbarSwitch {
public:
  // Stats: <name>.forwarded, <name>.bad_route, <name>.blocked_ps (total
  // time heads waited for a busy output), <name>.blocked_inputs (level).
  // At most 256 ports, since a route byte names the output.
  CrossbarSwitch(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::string name,
                 std::size_t ports, kernel::SimTime routing_latency);
  CrossbarSwitch(const CrossbarSwitch&) = delete;
  CrossbarSwitch& operator=(const CrossbarSwitch&) = delete;

  const std::string& name() const { return name_; }
  std::size_t port_count() const { return inputs_.size(); }
  kernel::SimTime routing_latency() const { return routing_latency_; }

  // Wiring: `link` arrives at, or leaves from, port `port`. Throws
  // std::out_of_range for a port the switch does not have.
  void attach_input(std::size_t port, Link& link);
  void attach_output(std::size_t port, Link& link);

private:
  // An input holds one head at a time: the next can only arrive after the
  // link into it has released the previous tail, which happens only once
  // that packet has left the input (forwarded or dropped).
  enum class InputState { idle, routing, waiting };

  struct Input final : LinkReceiver {
    CrossbarSwitch* owner = nullptr;
    std::size_t index = 0;
    InputState state = InputState::idle;
    std::shared_ptr<Worm> current;
    std::size_t wanted = 0;
    kernel::SimTime waiting_since;
    void on_head_arrived(Link& link, std::shared_ptr<Worm> worm) override;
    kernel::SimTime routing_slack() const override { return owner->routing_latency_; }
    kernel::EventReach reach() const override { return kernel::EventReach::not_processors; }
  };

  struct Output final : LinkSender {
    CrossbarSwitch* owner = nullptr;
    std::size_t index = 0;
    Link* link = nullptr;
    bool busy = false; // a packet is passing, until its tail has left
    std::size_t last_granted = 0;
    bool arbitration_pending = false;
    void on_link_released(Link& link, const Worm& worm) override;
    kernel::EventReach reach() const override { return kernel::EventReach::not_processors; }
  };

  void start_routing(Input& in);
  void route_decided(Input& in);
  void request_arbitration(Output& out);
  void arbitrate(Output& out);

  kernel::Kernel& kernel_;
  std::string name_;
  kernel::SimTime routing_latency_;
  std::vector<Input> inputs_;
  std::vector<Output> outputs_;
  kernel::Counter& forwarded_;
  kernel::Counter& bad_route_;
  kernel::Counter& blocked_ps_;
  kernel::TimeWeighted& blocked_inputs_;
};

} // namespace lanai::wire
