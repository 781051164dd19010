// The session's lifetime brackets one cluster run, so every program has
// been stopped (and unwound) before the drivers it used go away.
#include "hostlib/driver/session.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace lanai::vipl {

namespace {
thread_local Session* active_session = nullptr;
} // namespace

Session::Session(host::Cluster& cluster)
    : cluster_(cluster), connections_(*this), outer_(active_session) {
  if (cluster.size() > VIA_MAX_NODES)
    throw std::invalid_argument(
        fmt::format("{} nodes: the VIA NIC routes to at most {}", cluster.size(), VIA_MAX_NODES));
  for (std::size_t node = 0; node < cluster.size(); ++node)
    drivers_.push_back(std::make_unique<NodeDriver>(*this, static_cast<std::uint32_t>(node)));
  active_session = this;
}

Session::~Session() {
  for (std::size_t node = 0; node < cluster_.size(); ++node)
    cluster_.host(node).stop_program();
  active_session = outer_;
}

Session* Session::active() { return active_session; }

void Session::warn_foreign_handle(std::uint32_t node, long owner) {
  if (warned_foreign_)
    return;
  warned_foreign_ = true;
  fmt::print(stderr,
             "node{}: a VIPL call was given a handle of node{}; every node runs via_main in one "
             "process, so per-node state must not live in global variables\n",
             node, owner);
}

NodeDriver* Session::current_driver() {
  host::HostCpu* host = host::HostCpu::current();
  if (!active_session || !host || host->node() >= active_session->drivers_.size())
    return nullptr;
  NodeDriver& driver = *active_session->drivers_[host->node()];
  return &driver.host() == host ? &driver : nullptr;
}

host::RunReport run_programs(host::Cluster& cluster, std::vector<std::function<int()>> programs) {
  Session session(cluster);
  return cluster.run(std::move(programs));
}

} // namespace lanai::vipl
