// The recurring tasks' table and wake heap.
#include "emulator/kernel/task_queue.hpp"
#include "emulator/kernel/timed_heap.hpp"

#include <algorithm>
#include <utility>

namespace lanai::kernel {

TaskId TaskQueue::add(Callback callback, std::string label) {
  tasks_.push_back(std::make_unique<Task>(Task{std::move(callback), std::move(label)}));
  return TaskId{static_cast<std::uint32_t>(tasks_.size())};
}

void TaskQueue::remove(TaskId id) {
  if (!exists(id))
    return;
  Task& task = *tasks_[id.value - 1];
  task.removed = true;
  if (!task.pending)
    return;
  // Removal is rare (a processor going away): the wake leaves the heap
  // at once, so looking at the front needs no check.
  task.pending = false;
  --pending_;
  const auto it = std::find_if(heap_.begin(), heap_.end(),
                               [&](const Wake& w) { return w.task == id.value - 1; });
  heap_.erase(it);
  std::make_heap(heap_.begin(), heap_.end(), later<Wake>);
}

void TaskQueue::wake(TaskId id, SimTime when) {
  tasks_[id.value - 1]->pending = true;
  ++pending_;
  timed_heap_push(heap_, Wake{when, id.value - 1, id.value - 1, tasks_[id.value - 1]->lookahead});
}

SimTime TaskQueue::earliest_reach(std::uint32_t self) const {
  SimTime earliest = SimTime::max();
  for (const Wake& w : heap_) {
    if (w.task == self)
      continue;
    // Without a lookahead the task itself runs at its wake, after `self`'s
    // work of that time if added later; with one, an event reaches `self`,
    // and events of a time come before a task's work of that time.
    const bool after_self = w.lookahead == SimTime::zero() && w.task > self;
    const SimTime reach = w.time + w.lookahead + picoseconds(after_self ? 1 : 0);
    earliest = std::min(earliest, reach);
  }
  return earliest;
}

TaskId TaskQueue::pop_front() {
  const std::uint32_t index = heap_.front().task;
  timed_heap_pop(heap_);
  tasks_[index]->pending = false;
  --pending_;
  return TaskId{index + 1};
}

} // namespace lanai::kernel
