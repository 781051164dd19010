// How busy each card's engines were over a stretch of virtual time: the
// LANai (the work its firmware marks, waiting and idle polling left out),
// the host DMA, and the network send and receive DMA.
#pragma once

#include <cstdint>
#include <vector>

#include "emulator/host/cluster.hpp"
#include "emulator/kernel/sim_time.hpp"

namespace lanai::bench {

struct CardUtilisation {
  double lanai = 0;
  double hdma = 0;
  double nsdma = 0;
  double nrdma = 0;
  // Member by member: the record codec's round trip is checked with it.
  bool operator==(const CardUtilisation&) const = default;
};

// Snapshots every card's busy times at two instants by kernel events, so
// that the window is exact whatever the host programs do meanwhile.
class UtilisationWindow {
public:
  // Both times at or after the kernel's now, `from` before `to`.
  void schedule(host::Cluster& cluster, kernel::SimTime from, kernel::SimTime to);
  bool closed() const { return closed_; }
  // Per node, once closed; empty before.
  const std::vector<CardUtilisation>& cards() const { return result_; }

private:
  struct Busy {
    kernel::SimTime lanai, hdma, nsdma, nrdma;
  };
  static std::vector<Busy> snapshot(host::Cluster& cluster, kernel::SimTime at);

  std::vector<Busy> start_;
  std::vector<CardUtilisation> result_;
  bool closed_ = false;
};

} // namespace lanai::bench
