// The kernel's recurring tasks: callbacks registered once and woken again
// and again, each wake a (time, sequence) entry in a small heap of its own.
// A component that reschedules itself after every run (a processor's
// slices) costs one heap entry per run this way: no callback copy, no label
// copy, no cancellation bookkeeping.
#pragma once

#include "emulator/kernel/callback.hpp"
#include "emulator/kernel/sim_time.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanai::kernel {

// Names one task of a Kernel. A default-constructed id names nothing.
struct TaskId {
  std::uint32_t value = 0;

  constexpr bool valid() const { return value != 0; }
};

class TaskQueue {
public:
  // Ordered by time, then by task: `sequence` is the task's index.
  struct Wake {
    SimTime time;
    std::uint64_t sequence;
    std::uint32_t task;  // index into the task table
    SimTime lookahead{}; // the task's, when it was woken
  };

  TaskId add(Callback callback, std::string label);
  // Marks the task removed and withdraws its pending wake.
  void remove(TaskId id);
  // Queues one wake; the caller checks the task exists and is not pending.
  void wake(TaskId id, SimTime when);

  bool exists(TaskId id) const {
    return id.valid() && id.value <= tasks_.size() && !tasks_[id.value - 1]->removed;
  }
  bool pending(TaskId id) const { return exists(id) && tasks_[id.value - 1]->pending; }
  // How long after its wake the task's run can first change what other
  // tasks' work that touches nothing outside them sees (0 unless set).
  void set_lookahead(TaskId id, SimTime lookahead) { tasks_[id.value - 1]->lookahead = lookahead; }
  // The earliest time, over other tasks' pending wakes, at which a run can
  // first reach task `self` (index) that way: wake plus lookahead (a task
  // without one: its wake, 1 ps later if added after `self`);
  // SimTime::max() if none is pending.
  SimTime earliest_reach(std::uint32_t self) const;
  const std::string& label(TaskId id) const { return tasks_[id.value - 1]->label; }
  std::size_t pending_count() const { return pending_; }

  // The earliest wake, or nullptr if there is none.
  const Wake* front() const { return heap_.empty() ? nullptr : &heap_.front(); }
  // Removes the front wake and returns its task, marked not pending.
  TaskId pop_front();
  // Runs the task's callback (the task may remove itself meanwhile).
  void run(TaskId id) { tasks_[id.value - 1]->callback(); }

private:
  struct Task {
    Callback callback;
    std::string label;
    SimTime lookahead{};
    bool pending = false;
    bool removed = false;
  };

  // Held by pointer: a running task's label stays in place while others are added.
  std::vector<std::unique_ptr<Task>> tasks_;
  std::vector<Wake> heap_;
  std::size_t pending_ = 0;
};

} // namespace lanai::kernel
