// The SIGINT (and SIGTERM) handler of a sweep: one lock-free atomic store,
// the only kind of work a signal handler may do.
#include "bench/sweep/interrupt_flag.hpp"

namespace lanai::bench {

namespace {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

struct sigaction saved_for_second_interrupt {};
struct sigaction saved_for_second_term {};

extern "C" void on_interrupt(int signal) {
  interrupted.store(true);
  sigaction(signal, signal == SIGTERM ? &saved_for_second_term : &saved_for_second_interrupt,
            nullptr);
}

} // namespace

InterruptFlag::InterruptFlag(bool also_sigterm) : also_sigterm_(also_sigterm) {
  interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = &on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_);
  saved_for_second_interrupt = previous_;
  if (also_sigterm_) {
    sigaction(SIGTERM, &action, &previous_term_);
    saved_for_second_term = previous_term_;
  }
}

InterruptFlag::~InterruptFlag() {
  sigaction(SIGINT, &previous_, nullptr);
  if (also_sigterm_)
    sigaction(SIGTERM, &previous_term_, nullptr);
}

const std::atomic<bool>& InterruptFlag::flag() const { return interrupted; }

void raise_interrupt() { interrupted.store(true); }

} // namespace lanai::bench
