// The cluster's run loop. LANai firmware polls forever, so the kernel never
// runs out of events while cards run; the loop therefore advances virtual
// time in fixed slices and judges progress between them: all programs done,
// a core stopped, or nobody able to move (deadlock): every program blocked
// with no deadline, no card's countdown timer running, and no progress for
// a whole window.
#include "emulator/host/cluster.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "emulator/nic/registered_counters.hpp"

namespace lanai::host {

namespace {

// The least time from a card's register access to the first change it can
// make to another card's memory: a packet's start on the send DMA, a link
// to the switch, the switch's routing, a link to the receiver and its
// receive DMA's work before the packet reaches SRAM. Every path between two
// cards crosses a switch; the bytes' own time on the links only adds.
kernel::SimTime card_to_card_lookahead(const profile::HardwareProfile& p) {
  return kernel::nanoseconds(std::int64_t{p.nic.nsdma_setup_ns} +
                             2 * std::int64_t{p.wire.link_latency_ns} + p.wire.switch_latency_ns +
                             p.nic.nrdma_setup_ns);
}

} // namespace

bool RunReport::success() const {
  return outcome == RunOutcome::finished &&
         std::all_of(exit_codes.begin(), exit_codes.end(), [](int code) { return code == 0; });
}

Cluster::Cluster(ClusterConfig config) : config_(std::move(config)) {
  if (config_.nodes == 0)
    throw std::invalid_argument("lanai::host::Cluster: no nodes");
  if (config_.firmware.size() != config_.nodes && config_.firmware.size() != 1)
    throw std::invalid_argument(
        fmt::format("lanai::host::Cluster: {} firmware images for {} nodes (one per node, or one "
                    "for all)",
                    config_.firmware.size(), config_.nodes));
  if (config_.switches == 0 || config_.switches > config_.nodes)
    throw std::invalid_argument(fmt::format("lanai::host::Cluster: {} switches for {} nodes",
                                            config_.switches, config_.nodes));
  const std::size_t per_switch = (config_.nodes + config_.switches - 1) / config_.switches;
  network_ =
      config_.send_into_sinks ? wire::sinks(kernel_, stats_, config_.profile, config_.nodes)
      : config_.switches == 1
          ? wire::single_switch(kernel_, stats_, config_.profile, config_.nodes)
          : wire::switch_chain(kernel_, stats_, config_.profile, per_switch, config_.switches);
  for (std::size_t i = 0; i < config_.nodes; ++i) {
    const auto node = static_cast<std::uint32_t>(i);
    const loader::LinkedImage& firmware = config_.firmware[config_.firmware.size() == 1 ? 0 : i];
    tables_.push_back(std::make_unique<nic::ProtectionTable>(node));
    cards_.push_back(std::make_unique<nic::Card>(kernel_, stats_, config_.profile, node,
                                                 network_->port(i), *tables_.back(), firmware));
    cards_.back()->set_trace(config_.trace);
    iss::Cpu& cpu = cards_.back()->cpu();
    cpu.set_fast_forward(config_.fast_forward && !config_.profiler);
    if (cpu.fast_forward())
      cards_.back()->core().set_lookahead(card_to_card_lookahead(config_.profile));
    if (config_.profiler)
      cpu.set_profile(&config_.profiler->attach(node, firmware, cpu.sram_bytes()));
    hosts_.push_back(std::make_unique<HostCpu>(kernel_, node));
    hosts_.back()->set_fast_forward(config_.fast_forward);
    // Until a driver installs its own hook, a host DMA write into host
    // memory is all a polling program could be waiting for.
    HostCpu* host = hosts_.back().get();
    cards_.back()->set_on_host_write([host](std::uint64_t, std::uint32_t) { host->notify(); });
  }
}

Cluster::~Cluster() {
  // Programs unwind while the cards and tables they may touch still exist.
  for (auto& host : hosts_)
    host->stop_program();
}

std::uint64_t Cluster::skipped_cycles() const {
  std::uint64_t total = 0;
  for (const auto& card : cards_)
    total += card->cpu().skipped_cycles();
  return total;
}

std::uint64_t Cluster::progress() const {
  std::uint64_t total = 0;
  for (const auto& card : cards_)
    total += card->activity();
  for (const auto& host : hosts_)
    total += host->wakeups();
  return total;
}

std::string Cluster::waiting_report() const {
  std::string lines;
  for (const auto& host : hosts_) {
    if (host->state() == HostState::finished)
      continue;
    if (!lines.empty())
      lines += '\n';
    if (host->state() == HostState::waiting) {
      lines += fmt::format("node{}: waits in {} since {:.3f} us", host->node(),
                           host->waiting_on().empty() ? "an unnamed wait" : host->waiting_on(),
                           host->waiting_since().as_us());
    } else {
      lines += fmt::format("node{}: {}", host->node(), to_string(host->state()));
    }
  }
  return lines;
}

std::string Cluster::firmware_report() const {
  std::string lines;
  for (const auto& card : cards_) {
    if (card->firmware_running())
      continue;
    if (!lines.empty())
      lines += '\n';
    std::string report = card->stop_report();
    while (!report.empty() && report.back() == '\n')
      report.pop_back();
    lines += report.empty() ? fmt::format("node {}: firmware stopped", card->node()) : report;
  }
  return lines;
}

RunReport Cluster::run(std::vector<std::function<int()>> programs) {
  if (ran_)
    throw std::logic_error("lanai::host::Cluster: run() called twice");
  if (programs.size() != hosts_.size())
    throw std::invalid_argument(fmt::format("lanai::host::Cluster: {} programs for {} nodes",
                                            programs.size(), hosts_.size()));
  ran_ = true;

  std::size_t unfinished = hosts_.size();
  for (auto& host : hosts_) {
    host->set_on_finish([this, &unfinished] {
      if (--unfinished == 0)
        kernel_.stop();
    });
  }
  // The callbacks count on this frame: gone with it, even if an event throws.
  struct ForgetCallbacks {
    std::vector<std::unique_ptr<HostCpu>>& hosts;
    ~ForgetCallbacks() {
      for (auto& host : hosts)
        host->set_on_finish(nullptr);
    }
  } forget{hosts_};
  for (auto& card : cards_)
    card->start();
  for (std::size_t i = 0; i < hosts_.size(); ++i)
    hosts_[i]->start(std::move(programs[i]), config_.host_stack_bytes);

  // Checks every slice; a deadlock needs a whole quiet window, so it is
  // reported between one window and one window plus a slice after it began.
  const kernel::SimTime window = std::max(config_.deadlock_window, kernel::microseconds(1));
  const kernel::SimTime slice = std::max(window / 8, kernel::nanoseconds(100));
  const bool limited = config_.time_limit > kernel::SimTime::zero();

  RunReport report;
  bool quiet = false;
  kernel::SimTime quiet_since{};
  std::uint64_t quiet_progress = 0;
  for (;;) {
    kernel::SimTime until = kernel_.now() + slice;
    if (limited)
      until = std::min(until, config_.time_limit);
    kernel_.run_until(until);

    if (unfinished == 0) {
      report.outcome = RunOutcome::finished;
      break;
    }
    if (std::any_of(cards_.begin(), cards_.end(),
                    [](const auto& card) { return !card->firmware_running(); })) {
      report.outcome = RunOutcome::firmware_stop;
      report.detail = firmware_report();
      break;
    }
    if (limited && kernel_.now() >= config_.time_limit) {
      report.outcome = RunOutcome::time_limit;
      report.detail = waiting_report();
      break;
    }
    const bool all_blocked = std::all_of(hosts_.begin(), hosts_.end(), [](const auto& host) {
      return host->state() == HostState::finished || host->waiting_without_deadline();
    });
    // A card whose firmware set its countdown timer will act when it
    // fires (resend a packet nobody acknowledged, say), however long the
    // programs wait for that.
    const bool timers_pending = std::any_of(cards_.begin(), cards_.end(),
                                            [](const auto& card) { return card->timer_running(); });
    if (!all_blocked || timers_pending) {
      quiet = false;
      continue;
    }
    const std::uint64_t now_progress = progress();
    if (!quiet || now_progress != quiet_progress) {
      quiet = true;
      quiet_since = kernel_.now();
      quiet_progress = now_progress;
    } else if (kernel_.now() - quiet_since >= window) {
      report.outcome = RunOutcome::deadlock;
      report.detail = waiting_report();
      break;
    }
  }

  report.end_time = kernel_.now();
  for (const auto& host : hosts_)
    stats_.counter(fmt::format("node{}.host.looks_in_place", host->node()))
        .add(host->looks_in_place());
  for (const auto& card : cards_) {
    stats_.counter(fmt::format("node{}.lanai.skipped_cycles", card->node()))
        .add(card->cpu().skipped_cycles());
    // The counters the firmware registered, as it left them.
    for (const nic::FirmwareCounter& c : nic::firmware_counters(*card)) {
      kernel::Counter& counter =
          stats_.counter(fmt::format("node{}.firmware.{}", card->node(), c.name));
      counter.reset();
      counter.add(c.value);
    }
  }
  for (const auto& host : hosts_) {
    report.exit_codes.push_back(host->state() == HostState::finished ? host->exit_code() : -1);
  }
  for (auto& host : hosts_)
    host->stop_program();
  return report;
}

} // namespace lanai::host
