// The recurring tasks' table and wake heap.
#include "emulator/kernel/task_queue.hpp"
#include "emulator/kernel/timed_heap.hpp"

#include <algorithm>
#include <utility>

namespace lanai::kernel {

TaskId TaskQueue::add(std::function<void()> callback, std::string label) {
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
  timed_heap_push(heap_, Wake{when, id.value - 1, id.value - 1});
}

TaskId TaskQueue::pop_front() {
  const std::uint32_t index = heap_.front().task;
  timed_heap_pop(heap_);
  tasks_[index]->pending = false;
  --pending_;
  return TaskId{index + 1};
}

} // namespace lanai::kernel
