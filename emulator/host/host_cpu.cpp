// The host processor: runs its program on a fiber and turns the program's
// compute and wait calls into kernel events, so host time advances only
// where the program (or the library on its behalf) says it does.
#include "emulator/host/host_cpu.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "emulator/host/fiber.hpp"

namespace lanai::host {

namespace {

thread_local HostCpu* running_host = nullptr;
thread_local SwitchObserver* switch_observer = nullptr;

// A program reaches a card only through the card's host side, which brings
// the card's sleeping core up before it reads or changes what the core
// reads or writes: the program's events leave the other sleeping cores
// where they are.
constexpr kernel::EventReach program_reach = kernel::EventReach::brought_up;

// Makes `host` current while its fiber runs, restoring the outer one after.
class CurrentHost {
public:
  explicit CurrentHost(HostCpu* host) : outer_(running_host) { running_host = host; }
  ~CurrentHost() { running_host = outer_; }
  CurrentHost(const CurrentHost&) = delete;
  CurrentHost& operator=(const CurrentHost&) = delete;

private:
  HostCpu* outer_;
};

} // namespace

std::string_view to_string(HostState state) {
  switch (state) {
  case HostState::idle:
    return "idle";
  case HostState::running:
    return "running";
  case HostState::computing:
    return "computing";
  case HostState::waiting:
    return "waiting";
  case HostState::finished:
    return "finished";
  }
  return "unknown";
}

HostCpu::HostCpu(kernel::Kernel& kernel, std::uint32_t node)
    : kernel_(kernel), node_(node), label_(fmt::format("node{}.host", node)) {}

HostCpu::~HostCpu() {
  stop_program();
  kernel_.cancel(resume_event_);
  kernel_.cancel(deadline_event_);
}

HostCpu* HostCpu::current() { return running_host; }

SwitchObserver* HostCpu::set_switch_observer(SwitchObserver* observer) {
  return std::exchange(switch_observer, observer);
}

void HostCpu::start(std::function<int()> program, std::size_t stack_bytes) {
  if (fiber_)
    throw std::logic_error(fmt::format("node{}: host program already started", node_));
  if (!program)
    throw std::invalid_argument(fmt::format("node{}: empty host program", node_));
  fiber_ = std::make_unique<Fiber>(
      [this, program = std::move(program)] {
        try {
          exit_code_ = program();
        } catch (const Fiber::Cancelled&) {
          throw;
        } catch (const std::exception& e) {
          exit_code_ = 1;
          failure_ = e.what();
        } catch (...) {
          exit_code_ = 1;
          failure_ = "unknown exception";
        }
        settle(); // the program ends once the time it owes is spent
      },
      stack_bytes != 0 ? stack_bytes : Fiber::default_stack_bytes);
  state_ = HostState::computing;
  resume_event_ = kernel_.schedule_in(
      kernel::SimTime::zero(), [this] { resume(); }, label_, program_reach);
}

void HostCpu::require_current(const char* what) const {
  if (running_host != this)
    throw std::logic_error(
        fmt::format("node{}: HostCpu::{} called from outside the node's program", node_, what));
}

void HostCpu::resume() {
  resume_event_ = {};
  wake_pending_ = false;
  state_ = HostState::running;
  ++wakeups_;
  {
    CurrentHost scope(this);
    SwitchObserver* observer = switch_observer;
    if (observer)
      observer->entering(node_);
    try {
      fiber_->resume();
    } catch (...) {
      if (observer)
        observer->left(node_);
      throw;
    }
    if (observer)
      observer->left(node_);
  }
  if (fiber_->finished())
    finish();
}

void HostCpu::suspend() { fiber_->yield(); }

void HostCpu::finish() {
  state_ = HostState::finished;
  finished_at_ = kernel_.now();
  deadline_.reset();
  kernel_.cancel(deadline_event_);
  if (on_finish_)
    on_finish_();
}

void HostCpu::compute(kernel::SimTime duration) {
  require_current("compute");
  if (fiber_->cancelling()) {
    // Throws Cancelled again, unless the program is already unwinding.
    fiber_->yield();
    return;
  }
  if (duration > kernel::SimTime::zero())
    busy_ += duration;
  const kernel::SimTime spent = std::max(duration, kernel::SimTime::zero()) + owed_;
  owed_ = kernel::SimTime::zero();
  if (spent == kernel::SimTime::zero())
    return;
  state_ = HostState::computing;
  resume_event_ = kernel_.schedule_in(
      spent, [this] { resume(); }, label_, program_reach);
  suspend();
}

void HostCpu::look(kernel::SimTime duration) {
  require_current("look");
  if (duration <= kernel::SimTime::zero())
    return;
  // Time the program reaches strictly before anything else happens: an
  // event of that very time would run before the program's resumption.
  // Nor may what the program did since it last left the kernel (a doorbell
  // rung, say) have woken a sleeping core, which would act before then.
  const kernel::SimTime until = time() + duration;
  if (fast_forward_ && !fiber_->cancelling() && until < kernel_.next_event_time() &&
      until <= kernel_.run_limit() && kernel_.sleepers_would_sleep_on()) {
    owed_ += duration;
    busy_ += duration;
    ++looks_in_place_;
    return;
  }
  compute(duration);
}

void HostCpu::sleep(kernel::SimTime duration) {
  require_current("sleep");
  if (duration <= kernel::SimTime::zero())
    return;
  settle();
  const kernel::SimTime until = kernel_.now() + duration;
  // Notifications wake the fiber early; it goes back to sleep until then.
  wait([] { return false; }, until, "sleep", kernel::SimTime::zero());
}

void HostCpu::exit_program(int code) {
  require_current("exit_program");
  settle();
  exit_code_ = code;
  fiber_->unwind_here();
}

bool HostCpu::wait(const std::function<bool()>& ready, std::optional<kernel::SimTime> deadline,
                   std::string what, kernel::SimTime poll_cost) {
  require_current("wait");
  settle();
  if (ready())
    return true;
  if (fiber_->cancelling()) {
    fiber_->yield();
    return false;
  }
  if (deadline && *deadline <= kernel_.now())
    return false;

  what_ = std::move(what);
  since_ = kernel_.now();
  deadline_ = deadline;
  missed_wake_ = false;
  if (deadline) {
    deadline_event_ = kernel_.schedule_at(
        *deadline,
        [this] {
          deadline_event_ = {};
          wake();
        },
        label_, program_reach);
  }
  // Leaves no timer or stale report behind, also when the fiber unwinds.
  struct Cleanup {
    HostCpu& host;
    ~Cleanup() {
      host.kernel_.cancel(host.deadline_event_);
      host.deadline_event_ = {};
      host.deadline_.reset();
      host.what_.clear();
    }
  } cleanup{*this};

  for (;;) {
    if (!missed_wake_) {
      state_ = HostState::waiting;
      suspend();
    }
    missed_wake_ = false;
    compute(poll_cost);
    if (ready())
      return true;
    if (deadline && kernel_.now() >= *deadline)
      return false;
  }
}

void HostCpu::notify() { wake(); }

void HostCpu::wake() {
  switch (state_) {
  case HostState::waiting:
    if (!wake_pending_) {
      wake_pending_ = true;
      resume_event_ = kernel_.schedule_in(
          kernel::SimTime::zero(), [this] { resume(); }, label_, program_reach);
    }
    break;
  case HostState::running:
  case HostState::computing:
    missed_wake_ = true;
    break;
  case HostState::idle:
  case HostState::finished:
    break;
  }
}

void HostCpu::stop_program() {
  if (!fiber_ || fiber_->finished())
    return;
  kernel_.cancel(resume_event_);
  kernel_.cancel(deadline_event_);
  resume_event_ = {};
  deadline_event_ = {};
  wake_pending_ = false;
  {
    CurrentHost scope(this);
    fiber_->cancel();
  }
  exit_code_ = 1;
  if (failure_.empty())
    failure_ = "stopped before it returned";
  state_ = HostState::finished;
  finished_at_ = kernel_.now();
  deadline_.reset();
}

} // namespace lanai::host
