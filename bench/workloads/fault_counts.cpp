// Reading the links' fault counters off a finished cluster.
#include "bench/workloads/fault_counts.hpp"

#include <fmt/format.h>

#include <variant>

#include "emulator/host/cluster.hpp"
#include "emulator/text/json_text.hpp"

namespace lanai::bench {

namespace {

std::uint64_t counter(const kernel::StatsRegistry& stats, const std::string& name) {
  const kernel::Stat* stat = stats.find(name);
  return stat ? std::get<kernel::Counter>(*stat).value() : 0;
}

} // namespace

std::vector<LinkFaultCount> fault_counts(host::Cluster& cluster) {
  std::vector<LinkFaultCount> counts;
  if (!cluster.profile().faults.any())
    return counts;
  for (const auto& link : cluster.network().links())
    counts.push_back({link->name(), counter(cluster.stats(), link->name() + ".dropped"),
                      counter(cluster.stats(), link->name() + ".corrupted")});
  return counts;
}

std::string fault_counts_json(const std::vector<LinkFaultCount>& counts) {
  std::string out = "{";
  for (const LinkFaultCount& c : counts)
    out += fmt::format("{}{}: {{\"dropped\": {}, \"corrupted\": {}}}", out.size() > 1 ? ", " : "",
                       text::json_string(c.link), c.dropped, c.corrupted);
  return out + "}";
}

} // namespace lanai::bench
