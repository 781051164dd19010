// Ctrl-C during a sweep: while an InterruptFlag lives, SIGINT raises its
// flag instead of killing the process, so the run can stop its points and
// keep what finished. A second SIGINT gets the previous disposition (by
// default: the process ends at once). The old handler is restored after.
// Under mpirun the ranks never see the terminal's SIGINT: mpirun answers it
// with SIGTERM to every rank (and SIGKILL a second later), so an MPI run
// takes SIGTERM the same way.
#pragma once

#include <atomic>
#include <csignal>

namespace lanai::bench {

class InterruptFlag {
public:
  explicit InterruptFlag(bool also_sigterm = false);
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>& flag() const;
  bool raised() const { return flag().load(); }

private:
  bool also_sigterm_;
  struct sigaction previous_ {};
  struct sigaction previous_term_ {};
};

// Raises the flag as a signal would: how rank 0 of an MPI sweep stops the
// others' points.
void raise_interrupt();

} // namespace lanai::bench
