// A fiber: a function with its own stack that runs until it yields and later
// continues where it stopped. Host programs run on fibers so that plain
// blocking code can wait in virtual time inside the event-driven emulator.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace lanai::host {

class Fiber {
public:
  static constexpr std::size_t default_stack_bytes = 256 * 1024;

  // Thrown inside the fiber by yield() while the fiber is being cancelled;
  // code that catches everything should rethrow it.
  struct Cancelled {};

  // The stack (with a guard page below it) is allocated here; the body
  // first runs at the first resume().
  explicit Fiber(std::function<void()> body, std::size_t stack_bytes = default_stack_bytes);
  // An unfinished fiber is cancelled first (see cancel()).
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From outside the fiber: runs it until it yields or its body returns. An
  // exception escaping the body is rethrown here, once.
  void resume();
  // From inside the fiber: returns to the resume() that entered it.
  void yield();
  // From outside: unwinds an unfinished fiber so that the destructors of its
  // frames run. yield() then throws Cancelled, or returns at once if called
  // while unwinding; a fiber never started simply does not run its body.
  void cancel();
  // From inside: ends the fiber here, as if it had been cancelled. Its
  // frames unwind (blocking calls in destructors return at once) and the
  // body counts as finished without failure.
  [[noreturn]] void unwind_here();

  bool started() const;
  bool finished() const;
  bool cancelling() const;
  // The fiber executing on this thread, or nullptr on an ordinary stack.
  static Fiber* current();

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace lanai::host
