// Ctrl-C during a sweep: while an InterruptFlag lives, SIGINT raises its
// flag instead of killing the process, so the run can stop its points and
// keep what finished. A second SIGINT gets the previous disposition (by
// default: the process ends at once). The old handler is restored after.
#pragma once

#include <atomic>
#include <csignal>

namespace lanai::bench {

class InterruptFlag {
public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>& flag() const;
  bool raised() const { return flag().load(); }

private:
  struct sigaction previous_ {};
};

} // namespace lanai::bench
