#include "emulator/host/firmware_profiler.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <ostream>
#include <stdexcept>

namespace lanai::host {

namespace {

constexpr const char* kOutside = "(outside any function)";

std::string demangle(const std::string& name) {
  int status = 0;
  char* plain = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || plain == nullptr)
    return name;
  std::string result(plain);
  std::free(plain);
  return result;
}

// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

} // namespace

iss::PcProfile& FirmwareProfiler::attach(std::uint32_t node, const loader::LinkedImage& image,
                                         std::uint32_t sram_bytes) {
  for (auto& attached : nodes_) {
    if (attached.node != node)
      continue;
    // Another run of the same node and firmware adds to its counts.
    if (attached.image.base != image.base || attached.image.bytes != image.bytes ||
        attached.counts->cycles.size() != sram_bytes / 4)
      throw std::invalid_argument(fmt::format(
          "firmware profiler: node {} attached again with other firmware or SRAM", node));
    return *attached.counts;
  }
  nodes_.push_back({node, image, std::make_unique<iss::PcProfile>(sram_bytes)});
  return *nodes_.back().counts;
}

std::vector<NodeProfile> FirmwareProfiler::report() const {
  std::vector<NodeProfile> nodes;
  for (const auto& attached : nodes_)
    nodes.push_back(attribute(attached.node, *attached.counts, attached.image));
  std::sort(nodes.begin(), nodes.end(),
            [](const NodeProfile& a, const NodeProfile& b) { return a.node < b.node; });
  return nodes;
}

NodeProfile attribute(std::uint32_t node, const iss::PcProfile& counts,
                      const loader::LinkedImage& image) {
  // Function extents: from a start to its recorded end, or else to the
  // next start.
  std::map<std::string, FunctionCost> by_name;
  NodeProfile profile;
  profile.node = node;
  const auto& functions = image.functions;
  for (std::size_t word = 0; word < counts.cycles.size(); ++word) {
    if (counts.instructions[word] == 0 && counts.cycles[word] == 0)
      continue;
    const auto address = static_cast<std::uint32_t>(word * 4);
    std::string name = kOutside;
    bool entry = false;
    auto it = functions.upper_bound(address);
    if (it != functions.begin()) {
      --it;
      const bool inside = it->second.size == 0 || address - it->first < it->second.size;
      if (inside) {
        name = it->second.name;
        entry = address == it->first;
      }
    }
    FunctionCost& cost = by_name[name];
    cost.function = name;
    if (entry)
      cost.entries += counts.instructions[word];
    cost.instructions += counts.instructions[word];
    cost.cycles += counts.cycles[word];
    profile.cycles += counts.cycles[word];
  }
  for (auto& [name, cost] : by_name) {
    if (name != kOutside)
      cost.function = demangle(name);
    profile.functions.push_back(std::move(cost));
  }
  std::sort(profile.functions.begin(), profile.functions.end(),
            [](const FunctionCost& a, const FunctionCost& b) {
              return a.cycles != b.cycles ? a.cycles > b.cycles : a.function < b.function;
            });
  return profile;
}

void write_profile_csv(std::ostream& out, const std::vector<NodeProfile>& nodes) {
  out << "node,function,entries,instructions,cycles,share\n";
  for (const auto& node : nodes)
    for (const auto& f : node.functions) {
      const double share =
          node.cycles == 0 ? 0.0 : static_cast<double>(f.cycles) / static_cast<double>(node.cycles);
      out << fmt::format("{},{},{},{},{},{:.6f}\n", node.node, csv_field(f.function), f.entries,
                         f.instructions, f.cycles, share);
    }
}

} // namespace lanai::host
