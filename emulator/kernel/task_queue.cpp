// The recurring tasks' table and wake heap.
#include "emulator/kernel/task_queue.hpp"

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
  std::make_heap(heap_.begin(), heap_.end(), Later{});
}

void TaskQueue::wake(TaskId id, SimTime when, std::uint64_t sequence) {
  tasks_[id.value - 1]->pending = true;
  ++pending_;
  // Sift up by hand: the new wake stays in registers instead of being
  // stored and read back at once, as push_heap does.
  const Wake wake{when, sequence, id.value - 1};
  std::size_t hole = heap_.size();
  heap_.emplace_back();
  while (hole > 0) {
    const std::size_t parent = (hole - 1) / 2;
    if (!Later{}(heap_[parent], wake))
      break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = wake;
}

TaskId TaskQueue::pop_front() {
  const std::uint32_t index = heap_.front().task;
  // Sift the last wake down from the root by hand (see wake()).
  const Wake last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n > 0) {
    std::size_t hole = 0;
    for (;;) {
      std::size_t child = 2 * hole + 1;
      if (child >= n)
        break;
      if (child + 1 < n && Later{}(heap_[child], heap_[child + 1]))
        ++child;
      if (!Later{}(last, heap_[child]))
        break;
      heap_[hole] = heap_[child];
      hole = child;
    }
    heap_[hole] = last;
  }
  tasks_[index]->pending = false;
  --pending_;
  return TaskId{index + 1};
}

} // namespace lanai::kernel
