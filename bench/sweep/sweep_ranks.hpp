// The ranks of an MPI sweep as the sweep runner sees them, without MPI:
// which rank this is, how many there are, and spreading a sweep's points
// over them. bench/mpi implements it; a build without MPI never makes one.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "bench/sweep/sweep_runner.hpp"

namespace lanai::bench {

class SweepRanks {
public:
  virtual ~SweepRanks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  bool leader() const { return rank() == 0; }

  // A test hook that holds a rank's first piece of work, for work other
  // than a point (rank 0's models of a pipeline sweep): if the hook names
  // this rank and nothing has taken it yet, the call that says so on stderr
  // and holds the work until 5 s after the stop; else an empty function.
  virtual std::function<void()> take_hold(std::string_view what, const std::atomic<bool>* stop) {
    (void)what, (void)stop;
    return {};
  }

  // Runs work(i) for the points this rank is given, on options.jobs
  // threads, until every point has been run somewhere or the stop flag is
  // raised. work returns the point's encoded record (empty: discarded).
  // Rank 0 gets every record by index, and the points ranks lost with why;
  // the other ranks get nothing. Every rank calls it, with the same count.
  virtual SpreadSweep spread(std::size_t count,
                             const std::function<std::optional<std::string>(std::size_t)>& work,
                             const SweepOptions& options) = 0;
};

} // namespace lanai::bench
