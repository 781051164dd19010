// A profile of the firmware each card ran: the cycles its LANai spent in
// every function, so that a researcher can see where a firmware's time
// goes (per message: divide by the messages the run carried). Given to a
// cluster in its configuration, it attaches a PcProfile to every card's
// core, turns the core's idle fast-forward off so that every cycle is
// executed and attributed (results do not change), and after the run sums
// the counts per function of the card's linked image.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "emulator/iss/pc_profile.hpp"
#include "emulator/loader/firmware_linker.hpp"

namespace lanai::host {

struct FunctionCost {
  std::string function;      // demangled; "(outside any function)" for the rest
  std::uint64_t entries = 0; // executions of the function's first instruction
  std::uint64_t instructions = 0;
  std::uint64_t cycles = 0;
};

struct NodeProfile {
  std::uint32_t node = 0;
  std::uint64_t cycles = 0;            // all cycles the core executed
  std::vector<FunctionCost> functions; // most cycles first, then by name
};

class FirmwareProfiler {
public:
  // Called by the cluster for each card it builds: the counts `node`'s
  // core fills, for a core with `sram_bytes` of SRAM running `image`. A
  // later cluster's node of the same number adds to the same counts (a
  // profile of several runs is their sum); it must run the same image.
  // Throws std::invalid_argument if it does not.
  iss::PcProfile& attach(std::uint32_t node, const loader::LinkedImage& image,
                         std::uint32_t sram_bytes);

  bool empty() const { return nodes_.empty(); }
  // Every attached node, in node order.
  std::vector<NodeProfile> report() const;

private:
  struct Attached {
    std::uint32_t node;
    loader::LinkedImage image;
    std::unique_ptr<iss::PcProfile> counts;
  };
  std::vector<Attached> nodes_;
};

// Sums `counts` per function of `image`.
NodeProfile attribute(std::uint32_t node, const iss::PcProfile& counts,
                      const loader::LinkedImage& image);

// CSV: node,function,entries,instructions,cycles,share (share of the
// node's cycles, 6 decimals), nodes in order, functions as in NodeProfile.
void write_profile_csv(std::ostream& out, const std::vector<NodeProfile>& nodes);

} // namespace lanai::host
