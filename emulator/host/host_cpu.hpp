// A host's processor as the simulation sees it: one program (a host
// application) runs as a fiber; it spends virtual time only when it says so
// (library call costs, explicit compute) and blocks in virtual time until a
// device tells it something changed. Plain blocking code, deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/sim_time.hpp"

namespace lanai::host {

class Fiber;

// Told whenever a host program's fiber starts or stops running, so that
// per-program process state (standard streams, say) can follow the program
// from node to node. Set per thread with HostCpu::set_switch_observer().
class SwitchObserver {
public:
  virtual ~SwitchObserver() = default;
  virtual void entering(std::uint32_t node) = 0;
  virtual void left(std::uint32_t node) = 0;
};

enum class HostState : std::uint8_t {
  idle,      // no program started
  running,   // the fiber is executing (inside a kernel event)
  computing, // sleeping for a known time (charged CPU time), or about to start
  waiting,   // blocked until notify() or a deadline
  finished,  // the program returned (or was stopped)
};

std::string_view to_string(HostState state);

class HostCpu {
public:
  HostCpu(kernel::Kernel& kernel, std::uint32_t node);
  // Stops an unfinished program first (see stop_program()).
  ~HostCpu();
  HostCpu(const HostCpu&) = delete;
  HostCpu& operator=(const HostCpu&) = delete;

  // Runs `program` in a fiber, starting at the kernel's current time. Its
  // return value is the exit code; an escaping exception counts as 1 and
  // its message is kept in failure().
  // `stack_bytes` is the fiber's stack (0: Fiber's default).
  void start(std::function<int()> program, std::size_t stack_bytes = 0);

  // --- Called from inside the program's fiber ---------------------------
  // Spends `duration` of CPU time: the fiber sleeps and resumes after it.
  void compute(kernel::SimTime duration);
  // Spends `duration` of CPU time on a call that only looks at what the
  // kernel's events change (a completion poll): with fast-forward on, and
  // nothing due before the time is spent (no event or task wake, no
  // sleeping core woken by what the program did, and the kernel's run goes
  // that far), the fiber goes on at once and owes the time. The program's clock, time(), then runs ahead of the kernel's;
  // compute(), wait(), sleep() and the program's end pay what is owed first,
  // in one event. Nothing can change what the program sees before then, so
  // it sees and does exactly what it would have, without a fiber switch and
  // a kernel event for every poll that cannot succeed.
  void look(kernel::SimTime duration);
  // The program's clock: the kernel's time plus what look() owes.
  kernel::SimTime time() const { return kernel_.now() + owed_; }
  // Sleeps for `duration` without using the CPU (the program's clock moves
  // on; busy_time() does not).
  void sleep(kernel::SimTime duration);
  // Ends the program here with exit code `code`, as exit() ends a process:
  // its frames unwind and it counts as finished.
  [[noreturn]] void exit_program(int code);
  // Blocks until `ready()` holds, checking it at once and again after every
  // notify(); each check after the first costs `poll_cost`. Returns false if
  // `deadline` passed first. `what` says what the program waits for (shown
  // in deadlock reports).
  bool wait(const std::function<bool()>& ready, std::optional<kernel::SimTime> deadline,
            std::string what, kernel::SimTime poll_cost);

  // --- Called from device events --------------------------------------
  // Something the program may wait on changed: a waiting fiber re-checks.
  // Several notifications before it runs make one re-check.
  void notify();

  // --- Run control ------------------------------------------------------
  // Ends an unfinished program without letting virtual time pass: its fiber
  // unwinds (destructors run, blocking calls return at once) and the host
  // counts as finished with exit code 1.
  void stop_program();
  // Called once, from the kernel event in which the program returned.
  void set_on_finish(std::function<void()> callback) { on_finish_ = std::move(callback); }

  // The host whose fiber is executing now, or nullptr outside any fiber.
  static HostCpu* current();
  // The observer of this thread's fiber switches (nullptr: none); returns
  // the previous one.
  static SwitchObserver* set_switch_observer(SwitchObserver* observer);

  std::uint32_t node() const { return node_; }
  kernel::Kernel& kernel() { return kernel_; }
  HostState state() const { return state_; }
  bool waiting_without_deadline() const { return state_ == HostState::waiting && !deadline_; }
  int exit_code() const { return exit_code_; }
  const std::string& failure() const { return failure_; }
  const std::string& waiting_on() const { return what_; }
  kernel::SimTime waiting_since() const { return since_; }
  // CPU time the program has charged so far.
  kernel::SimTime busy_time() const { return busy_; }
  // When the program returned or was stopped.
  kernel::SimTime finished_at() const { return finished_at_; }
  // Times the fiber has been resumed: grows whenever the program moves.
  std::uint64_t wakeups() const { return wakeups_; }
  // Looks made without leaving the fiber (see look()).
  std::uint64_t looks_in_place() const { return looks_in_place_; }
  // On by default; off, every look() is a compute().
  void set_fast_forward(bool on) { fast_forward_ = on; }

private:
  void resume();
  void suspend();
  void wake();
  void require_current(const char* what) const;
  void finish();
  // Pays what look() owes (see there).
  void settle() { compute(kernel::SimTime::zero()); }

  kernel::Kernel& kernel_;
  std::uint32_t node_;
  std::string label_;
  std::unique_ptr<Fiber> fiber_;
  HostState state_ = HostState::idle;
  int exit_code_ = 0;
  std::string failure_;
  std::string what_;
  kernel::SimTime since_{};
  kernel::SimTime busy_{};
  kernel::SimTime finished_at_{};
  std::optional<kernel::SimTime> deadline_;
  kernel::EventId resume_event_;
  kernel::EventId deadline_event_;
  bool wake_pending_ = false;
  // A notification that came while the program was not blocked, so that a
  // wait in progress re-checks instead of sleeping through it.
  bool missed_wake_ = false;
  std::uint64_t wakeups_ = 0;
  kernel::SimTime owed_{}; // charged by look(), not yet spent in the kernel
  std::uint64_t looks_in_place_ = 0;
  bool fast_forward_ = true;
  std::function<void()> on_finish_;
};

} // namespace lanai::host
