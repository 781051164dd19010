// The discrete-event scheduler: a binary heap of (time, sequence) ordered
// entries with lazy cancellation, the recurring tasks' wakes merged with it
// in the same order, and the run loops that advance virtual time.
#include "emulator/kernel/event_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace lanai::kernel {

namespace {

// Clears the running flag however a run loop exits, so a callback that throws
// does not leave the kernel refusing every later run.
class RunningGuard {
public:
  explicit RunningGuard(bool& flag) : flag_(flag) { flag_ = true; }
  ~RunningGuard() { flag_ = false; }
  RunningGuard(const RunningGuard&) = delete;
  RunningGuard& operator=(const RunningGuard&) = delete;

private:
  bool& flag_;
};

} // namespace

EventId Kernel::schedule_at(SimTime when, Callback callback, std::string_view label) {
  if (when < now_) {
    throw std::logic_error(fmt::format(
        "lanai::kernel: event '{}' scheduled in the past: at {} ps, but the current time is {} ps",
        label, when.ps(), now_.ps()));
  }
  if (!callback) {
    throw std::invalid_argument(
        fmt::format("lanai::kernel: event '{}' scheduled with an empty callback", label));
  }
  const std::uint64_t sequence = next_sequence_++;
  heap_.push_back(Entry{when, sequence, std::move(callback), std::string(label)});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  live_.insert(sequence);
  return EventId{sequence};
}

EventId Kernel::schedule_in(SimTime delay, Callback callback, std::string_view label) {
  if (delay < SimTime::zero()) {
    throw std::logic_error(fmt::format(
        "lanai::kernel: event '{}' scheduled in the past: negative delay of {} ps at {} ps", label,
        delay.ps(), now_.ps()));
  }
  return schedule_at(now_ + delay, std::move(callback), label);
}

bool Kernel::cancel(EventId id) {
  const bool was_live = live_.erase(id.value) > 0;
  if (id.value == live_front_)
    live_front_ = 0;
  // Once nothing is live every remaining entry is dead; dropping them now
  // bounds the memory a cancel-heavy workload can pin.
  if (was_live && live_.empty())
    heap_.clear();
  return was_live;
}

void Kernel::drop_cancelled_front() {
  if (!heap_.empty() && heap_.front().sequence == live_front_)
    return;
  while (!heap_.empty() && !live_.contains(heap_.front().sequence)) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  }
  live_front_ = heap_.empty() ? 0 : heap_.front().sequence;
}

Kernel::Entry Kernel::pop_front() {
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  Entry entry = std::move(heap_.back());
  heap_.pop_back();
  return entry;
}

void Kernel::execute(Entry entry) {
  live_.erase(entry.sequence);
  now_ = entry.time;
  current_label_ = entry.label;
  ++events_executed_;
  try {
    entry.callback();
  } catch (...) {
    current_label_ = {};
    throw;
  }
  current_label_ = {};
}

void Kernel::execute_task(TaskId task, SimTime time) {
  now_ = time;
  current_label_ = tasks_.label(task);
  ++events_executed_;
  try {
    tasks_.run(task);
  } catch (...) {
    current_label_ = {};
    throw;
  }
  current_label_ = {};
}

TaskId Kernel::add_task(Callback callback, std::string_view label) {
  if (!callback) {
    throw std::invalid_argument(
        fmt::format("lanai::kernel: task '{}' added with an empty callback", label));
  }
  return tasks_.add(std::move(callback), std::string(label));
}

void Kernel::wake_task(TaskId task, SimTime when) {
  if (!tasks_.exists(task)) {
    throw std::logic_error("lanai::kernel: wake of a task that does not exist");
  }
  if (tasks_.pending(task)) {
    throw std::logic_error(fmt::format(
        "lanai::kernel: task '{}' woken while a wake is already pending", tasks_.label(task)));
  }
  if (when < now_) {
    throw std::logic_error(fmt::format(
        "lanai::kernel: task '{}' woken in the past: at {} ps, but the current time is {} ps",
        tasks_.label(task), when.ps(), now_.ps()));
  }
  tasks_.wake(task, when, next_sequence_++);
}

bool Kernel::run_next(SimTime limit) {
  drop_cancelled_front();
  const TaskQueue::Wake* wake = tasks_.front();
  const bool event = !heap_.empty() && heap_.front().time <= limit;
  if (wake != nullptr && wake->time <= limit &&
      (!event || wake->time < heap_.front().time ||
       (wake->time == heap_.front().time && wake->sequence < heap_.front().sequence))) {
    const SimTime time = wake->time;
    execute_task(tasks_.pop_front(), time);
    return true;
  }
  if (!event)
    return false;
  execute(pop_front());
  return true;
}

void Kernel::enter_run(const char* who) {
  if (running_) {
    throw std::logic_error(
        fmt::format("lanai::kernel: {}() called from inside an event callback ('{}'); "
                    "use stop() and schedule work instead",
                    who, current_label_));
  }
}

SimTime Kernel::next_event_time() {
  drop_cancelled_front();
  const TaskQueue::Wake* wake = tasks_.front();
  const SimTime event = heap_.empty() ? SimTime::max() : heap_.front().time;
  return wake != nullptr ? std::min(event, wake->time) : event;
}

bool Kernel::step() {
  enter_run("step");
  RunningGuard guard(running_);
  return run_next(SimTime::max());
}

void Kernel::run() {
  enter_run("run");
  RunningGuard guard(running_);
  stop_requested_ = false;
  while (!stop_requested_ && run_next(SimTime::max())) {
  }
  stop_requested_ = false;
}

void Kernel::run_until(SimTime limit) {
  enter_run("run_until");
  if (limit < now_) {
    throw std::logic_error(
        fmt::format("lanai::kernel: run_until({} ps) would move time backwards from {} ps",
                    limit.ps(), now_.ps()));
  }
  RunningGuard guard(running_);
  stop_requested_ = false;
  while (!stop_requested_) {
    if (!run_next(limit)) {
      now_ = limit;
      break;
    }
  }
  stop_requested_ = false;
}

} // namespace lanai::kernel
