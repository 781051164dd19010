// A VIPL session: the VIA driver attached to every node of a cluster for
// one run, plus the cluster-wide connection manager. VIPL calls find their
// node's driver through the session active on the calling thread.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "hostlib/driver/connection_manager.hpp"
#include "emulator/host/cluster.hpp"
#include "hostlib/driver/node_driver.hpp"

namespace lanai::vipl {

class Session {
public:
  // Attaches a driver to every node and becomes the thread's active
  // session. Throws std::invalid_argument beyond VIA_MAX_NODES nodes.
  explicit Session(host::Cluster& cluster);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  host::Cluster& cluster() { return cluster_; }
  NodeDriver& driver(std::size_t node) { return *drivers_.at(node); }
  ConnectionManager& connections() { return connections_; }

  // Says once per session, on stderr, that node `node` was handed a handle
  // of node `owner`: every node's program runs in this one process, so
  // per-node state kept in global variables is shared by all nodes.
  void warn_foreign_handle(std::uint32_t node, long owner);

  static Session* active();
  // The driver of the node whose program is running, or nullptr.
  static NodeDriver* current_driver();

private:
  host::Cluster& cluster_;
  ConnectionManager connections_;
  std::vector<std::unique_ptr<NodeDriver>> drivers_;
  Session* outer_;
  bool warned_foreign_ = false;
};

// Runs program i on node i of `cluster` with a VIPL session around the
// run: the programs may call any VIPL function. The C++ entry for tests and
// embedders; the launcher's main() goes through it too.
host::RunReport run_programs(host::Cluster& cluster, std::vector<std::function<int()>> programs);

} // namespace lanai::vipl
