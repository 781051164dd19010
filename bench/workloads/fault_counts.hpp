// What the fabric's injected faults did to one run: per link, the packets
// it dropped and the ones it corrupted (the profile's [faults] table).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lanai::host {
class Cluster;
}

namespace lanai::bench {

struct LinkFaultCount {
  std::string link;
  std::uint64_t dropped = 0;
  std::uint64_t corrupted = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const LinkFaultCount&) const = default;
};

// Every link's counts in the fabric's link order; empty when the profile
// injects no faults.
std::vector<LinkFaultCount> fault_counts(host::Cluster& cluster);

// {"<link>": {"dropped": D, "corrupted": C}, ...}
std::string fault_counts_json(const std::vector<LinkFaultCount>& counts);

} // namespace lanai::bench
