#include "bench/workloads/fan_out_run.hpp"

#include <utility>

#include "emulator/nic/registered_counters.hpp"
#include "hostlib/driver/session.hpp"
#include "bench/workloads/pingpong.hpp"

namespace lanai::bench {

FanOutOutcome run_fan_out(const ClusterSetup& setup,
                          const std::function<void(host::Cluster&)>& attach,
                          std::function<int()> sender,
                          const std::function<int(std::uint32_t)>& receiver) {
  host::ClusterConfig config = cluster_config(setup);
  config.deadlock_window = kernel::milliseconds(20);
  host::Cluster cluster(std::move(config));
  attach(cluster);
  std::vector<std::function<int()>> programs;
  programs.push_back(std::move(sender));
  for (std::uint32_t r = 1; r < setup.nodes; ++r)
    programs.emplace_back([&receiver, r] { return receiver(r); });
  const host::RunReport report = vipl::run_programs(cluster, std::move(programs));
  FanOutOutcome out;
  out.outcome = report.outcome;
  out.detail = describe_failure(cluster, report);
  out.end_us = report.end_time.as_us();
  out.faults = fault_counts(cluster);
  for (const nic::FirmwareCounter& c : nic::firmware_counters(cluster.card(0)))
    if (c.name.ends_with("_retransmissions"))
      out.sender_retransmissions += c.value;
  return out;
}

bool split_utilisation(const UtilisationWindow& window, CardUtilisation& sender,
                       std::vector<CardUtilisation>& receivers) {
  if (!window.closed())
    return false;
  const auto& cards = window.cards();
  sender = cards.at(0);
  receivers.assign(cards.begin() + 1, cards.end());
  return true;
}

} // namespace lanai::bench
