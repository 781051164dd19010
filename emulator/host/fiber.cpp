// Fibers on Boost.Context with fixed-size, guard-paged stacks. AddressSanitizer
// tracks one stack per thread, so every switch between stacks is announced to
// it (start before, finish after), or it would misreport the other stack's
// frames as overflows.
#include "emulator/host/fiber.hpp"

#include <exception>
#include <stdexcept>
#include <utility>

#include <boost/context/fiber.hpp>
#include <boost/context/preallocated.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <boost/context/stack_traits.hpp>

#if defined(__SANITIZE_ADDRESS__)
#define LANAI_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LANAI_FIBER_ASAN 1
#endif
#endif

#if defined(LANAI_FIBER_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace lanai::host {

namespace ctx = boost::context;

namespace {

thread_local Fiber* running_fiber = nullptr;

// `fake_stack_save` is nullptr on a stack's last switch: the sanitizer then
// frees that stack's fake frames instead of keeping them for a return.
void start_switch(void** fake_stack_save, const void* bottom, std::size_t size) {
#if defined(LANAI_FIBER_ASAN)
  __sanitizer_start_switch_fiber(fake_stack_save, bottom, size);
#else
  (void)fake_stack_save, (void)bottom, (void)size;
#endif
}

void finish_switch(void* fake_stack_save, const void** old_bottom, std::size_t* old_size) {
#if defined(LANAI_FIBER_ASAN)
  __sanitizer_finish_switch_fiber(fake_stack_save, old_bottom, old_size);
#else
  (void)fake_stack_save, (void)old_bottom, (void)old_size;
#endif
}

// The guard-paged stack, cleaned of stale sanitizer poison before it is
// unmapped: frames that never returned (the fiber's entry) leave poisoned
// shadow behind, and a later mapping at the same address would inherit it.
class GuardedStack {
public:
  explicit GuardedStack(std::size_t bytes) : inner_(bytes) {}
  ctx::stack_context allocate() { return inner_.allocate(); }
  void deallocate(ctx::stack_context& stack) noexcept {
#if defined(LANAI_FIBER_ASAN)
    __asan_unpoison_memory_region(static_cast<char*>(stack.sp) - stack.size, stack.size);
#endif
    inner_.deallocate(stack);
  }

private:
  ctx::protected_fixedsize_stack inner_;
};

} // namespace

struct Fiber::State {
  std::function<void()> body;
  ctx::fiber suspended; // the fiber while it is not running
  ctx::fiber resumer;   // inside the fiber: where yield() goes back to
  std::exception_ptr failure;
  bool started = false;
  bool finished = false;
  bool running = false;
  bool cancelling = false;
  Fiber* outer = nullptr; // the fiber (if any) that resumed this one

  // Sanitizer bookkeeping: the usable part of this fiber's stack, the
  // resumer's stack as reported on entry, and each side's fake stack.
  const void* stack_bottom = nullptr;
  std::size_t stack_size = 0;
  const void* resumer_bottom = nullptr;
  std::size_t resumer_size = 0;
  void* resumer_fake_stack = nullptr;
  void* fiber_fake_stack = nullptr;

  ctx::fiber enter(ctx::fiber&& from) {
    finish_switch(nullptr, &resumer_bottom, &resumer_size);
    resumer = std::move(from);
    if (!cancelling) {
      try {
        body();
      } catch (const Cancelled&) {
        // The unwinding cancel() asked for is complete.
      } catch (...) {
        failure = std::current_exception();
      }
    }
    finished = true;
    start_switch(nullptr, resumer_bottom, resumer_size);
    return std::move(resumer);
  }
};

Fiber::Fiber(std::function<void()> body, std::size_t stack_bytes)
    : state_(std::make_unique<State>()) {
  if (!body)
    throw std::invalid_argument("lanai::host::Fiber: empty body");
  state_->body = std::move(body);
  GuardedStack allocator(stack_bytes);
  ctx::stack_context stack = allocator.allocate();
  const std::size_t guard = ctx::stack_traits::page_size();
  state_->stack_bottom = static_cast<char*>(stack.sp) - stack.size + guard;
  state_->stack_size = stack.size - guard;
  // Creating the context hops onto the new stack and straight back to park
  // it at its entry point; that hop is not announced to the sanitizer, and
  // needs not be: nothing on it throws or asks the runtime about stacks.
  State* state = state_.get();
  state_->suspended = ctx::fiber(
      std::allocator_arg, ctx::preallocated(stack.sp, stack.size, stack), std::move(allocator),
      [state](ctx::fiber&& from) { return state->enter(std::move(from)); });
}

Fiber::~Fiber() {
  if (state_ && !state_->finished)
    cancel();
}

void Fiber::resume() {
  State& s = *state_;
  if (s.finished)
    throw std::logic_error("lanai::host::Fiber: resumed after it finished");
  if (s.running)
    throw std::logic_error("lanai::host::Fiber: resumed while running");
  s.started = true;
  s.running = true;
  s.outer = running_fiber;
  running_fiber = this;
  start_switch(&s.resumer_fake_stack, s.stack_bottom, s.stack_size);
  s.suspended = std::move(s.suspended).resume();
  finish_switch(s.resumer_fake_stack, nullptr, nullptr);
  running_fiber = s.outer;
  s.running = false;
  if (s.finished) {
    // Destroy what the body captured now, on an ordinary stack.
    s.body = nullptr;
    if (s.failure)
      std::rethrow_exception(std::exchange(s.failure, nullptr));
  }
}

void Fiber::yield() {
  State& s = *state_;
  if (running_fiber != this)
    throw std::logic_error("lanai::host::Fiber: yield() from outside the fiber");
  if (s.cancelling) {
    // A destructor that blocks while the fiber unwinds must not throw again.
    if (std::uncaught_exceptions() > 0)
      return;
    throw Cancelled{};
  }
  start_switch(&s.fiber_fake_stack, s.resumer_bottom, s.resumer_size);
  s.resumer = std::move(s.resumer).resume();
  finish_switch(s.fiber_fake_stack, &s.resumer_bottom, &s.resumer_size);
  if (s.cancelling && std::uncaught_exceptions() == 0)
    throw Cancelled{};
}

void Fiber::cancel() {
  State& s = *state_;
  if (s.finished)
    return;
  if (s.running)
    throw std::logic_error("lanai::host::Fiber: cancelled while running");
  s.cancelling = true;
  // yield() no longer switches, so one resume runs the body to its end.
  try {
    resume();
  } catch (...) {
    // The body failed while unwinding; nobody is left to tell.
  }
}

void Fiber::unwind_here() {
  if (running_fiber != this)
    throw std::logic_error("lanai::host::Fiber: unwind_here() from outside the fiber");
  state_->cancelling = true;
  throw Cancelled{};
}

bool Fiber::started() const { return state_->started; }
bool Fiber::finished() const { return state_->finished; }
bool Fiber::cancelling() const { return state_->cancelling; }
Fiber* Fiber::current() { return running_fiber; }

} // namespace lanai::host
