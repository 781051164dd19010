// The SIGINT handler of a sweep: one lock-free atomic store, the only kind
// of work a signal handler may do.
#include "experiment/interrupt_flag.hpp"

namespace lanai::bench {

namespace {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

struct sigaction saved_for_second_interrupt {};

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  sigaction(SIGINT, &saved_for_second_interrupt, nullptr);
}

} // namespace

InterruptFlag::InterruptFlag() {
  interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = &on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_);
  saved_for_second_interrupt = previous_;
}

InterruptFlag::~InterruptFlag() { sigaction(SIGINT, &previous_, nullptr); }

const std::atomic<bool>& InterruptFlag::flag() const { return interrupted; }

} // namespace lanai::bench
