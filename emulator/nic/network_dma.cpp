// The network DMA engines' shared state: its figures registered by name.
#include "emulator/nic/network_dma.hpp"

#include <fmt/format.h>

namespace lanai::nic {

NetworkDma::NetworkDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
                       std::string_view name, kernel::SimTime setup, iss::Cpu& cpu,
                       wire::NetworkPort& port)
    : kernel_(kernel), cpu_(cpu), port_(port), node_(node), setup_(setup),
      meter_(stats, fmt::format("node{}.{}", node, name)),
      packets_(stats.counter(fmt::format("node{}.{}.packets", node, name))),
      bytes_(stats.counter(fmt::format("node{}.{}.bytes", node, name))) {}

} // namespace lanai::nic
