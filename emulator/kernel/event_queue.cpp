// The discrete-event scheduler: a binary heap of (time, sequence) ordered
// entries with lazy cancellation, the recurring tasks' wakes merged with it
// in the same order, and the run loops that advance virtual time.
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/timed_heap.hpp"

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

EventId Kernel::schedule_at(SimTime when, Callback callback, std::string_view label,
                            EventReach reach) {
  return schedule(when, std::move(callback), label, false, reach);
}

EventId Kernel::schedule_after_tasks(SimTime when, Callback callback, std::string_view label) {
  return schedule(when, std::move(callback), label, true, EventReach::anything);
}

EventId Kernel::schedule(SimTime when, Callback&& callback, std::string_view label, bool late,
                         EventReach reach) {
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
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    if (slots_.size() >= no_slot)
      throw std::length_error("lanai::kernel: too many events pending");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  Slot& s = slots_[slot];
  s.callback = std::move(callback);
  s.label = label;
  s.sequence = sequence;
  push_entry(Entry{when, sequence, slot, Entry::mark(late, reach)});
  ++live_;
  return EventId{sequence, slot};
}

EventId Kernel::schedule_in(SimTime delay, Callback callback, std::string_view label,
                            EventReach reach) {
  if (delay < SimTime::zero()) {
    throw std::logic_error(fmt::format(
        "lanai::kernel: event '{}' scheduled in the past: negative delay of {} ps at {} ps", label,
        delay.ps(), now_.ps()));
  }
  return schedule(now_ + delay, std::move(callback), label, false, reach);
}

bool Kernel::cancel(EventId id) {
  const std::uint32_t slot = slot_of(id);
  if (slot == no_slot)
    return false;
  Slot& s = slots_[slot];
  if (s.sequence == live_front_)
    live_front_ = 0;
  s.sequence = 0;
  s.callback = nullptr;
  free_slots_.push_back(slot);
  --live_;
  // Once nothing is live every remaining entry is dead; dropping them now
  // bounds the memory a cancel-heavy workload can pin.
  if (live_ == 0)
    heap_.clear();
  return true;
}

void Kernel::push_entry(Entry entry) { timed_heap_push(heap_, entry); }

void Kernel::pop_entry() { timed_heap_pop(heap_); }

void Kernel::drop_cancelled_front() {
  if (!heap_.empty() && heap_.front().sequence == live_front_)
    return;
  while (!heap_.empty() && !entry_live(heap_.front()))
    pop_entry();
  live_front_ = heap_.empty() ? 0 : heap_.front().sequence;
}

void Kernel::execute(Entry entry) {
  Slot& s = slots_[entry.slot];
  s.sequence = 0; // no longer pending, also for the callback itself
  --live_;
  // An event of a time whose late events have begun to run comes after
  // every processor's instructions of that time, as they do (it was
  // scheduled since): the sleepers it reaches are brought up through that
  // time, which those late events did not all do if their reach was narrower.
  const bool late = entry.late() || (late_ran_ && entry.time == late_time_);
  if (entry.late()) {
    late_ran_ = true;
    late_time_ = entry.time;
  }
  const std::uint32_t reach = entry.reach();
  if (reach == EventReach::brought_up.code && !sleepers_.empty()) {
    execute_deferring(entry, late, s);
    return;
  }
  if (reach != EventReach::not_processors.code) {
    for (const SleeperEntry& sleeper : sleepers_)
      if (reaches(reach, sleeper))
        sleeper.sleeper->advance_to(entry.time, late);
  }
  now_ = entry.time;
  current_label_ = s.label;
  ++events_executed_;
  ++scheduled_executed_;
  // The slot is reused only after the callback: its label stays put
  // meanwhile, and slots never move (StableChunks), so the callback may
  // schedule as much as it likes.
  try {
    s.callback();
  } catch (...) {
    current_label_ = {};
    s.callback = nullptr;
    free_slots_.push_back(entry.slot);
    throw;
  }
  current_label_ = {};
  s.callback = nullptr;
  free_slots_.push_back(entry.slot);
  if (reach != EventReach::not_processors.code && !sleepers_.empty())
    std::erase_if(sleepers_, [reach](const SleeperEntry& sleeper) {
      return reaches(reach, sleeper) && !sleeper.sleeper->sleeps_on();
    });
}

void Kernel::execute_deferring(const Entry& entry, bool late, Slot& s) {
  now_ = entry.time;
  current_label_ = s.label;
  ++events_executed_;
  ++scheduled_executed_;
  deferred_ = {entry.time, late};
  deferring_ = true;
  struct Done {
    Kernel& k;
    std::uint32_t slot;
    ~Done() {
      k.deferring_ = false;
      k.current_label_ = {};
      k.slots_[slot].callback = nullptr;
      k.free_slots_.push_back(slot);
    }
  };
  try {
    const Done done{*this, entry.slot};
    s.callback();
  } catch (...) {
    wake_brought_up(sleepers_.begin());
    throw;
  }
  // Settled in turn. One may throw: those before it have left the list if
  // they woke; of those after it, the ones brought up wake, since what the
  // event changed for them is not known, and waking is always exact (they
  // run on); the others sleep on, unchanged as far as is known.
  auto kept = sleepers_.begin();
  for (auto it = sleepers_.begin(); it != sleepers_.end(); ++it) {
    const bool brought_up = std::exchange(it->brought_up, false);
    bool asleep;
    try {
      asleep = it->sleeper->settle(brought_up);
    } catch (...) {
      // It stays on the list (the run ends with its error).
      *kept++ = *it;
      wake_brought_up(sleepers_.erase(kept, it + 1));
      throw;
    }
    if (asleep)
      *kept++ = *it;
  }
  sleepers_.erase(kept, sleepers_.end());
}

void Kernel::wake_brought_up(std::vector<SleeperEntry>::iterator from) {
  std::vector<SleeperEntry> woken;
  for (auto it = from; it != sleepers_.end();) {
    if (it->brought_up) {
      woken.push_back(*it);
      it = sleepers_.erase(it);
    } else {
      ++it;
    }
  }
  for (const SleeperEntry& s : woken)
    s.sleeper->wake(now_);
}

void Kernel::bring_up(Sleeper& sleeper) {
  if (!deferring_)
    return;
  for (SleeperEntry& s : sleepers_) {
    if (s.sleeper != &sleeper || s.brought_up)
      continue;
    s.brought_up = true;
    sleeper.bring_up_to(deferred_.time, deferred_.late);
    return;
  }
}

EventReach Kernel::new_processor_reach() {
  if (processors_named_ >= (1u << 31) - 3)
    throw std::length_error("lanai::kernel: too many processors named");
  return EventReach::processor(processors_named_++);
}

void Kernel::remove_sleeper(Sleeper& sleeper) {
  std::erase_if(sleepers_, [&sleeper](const SleeperEntry& s) { return s.sleeper == &sleeper; });
}

bool Kernel::sleepers_would_sleep_on() const {
  return std::all_of(sleepers_.begin(), sleepers_.end(),
                     [](const SleeperEntry& s) { return s.sleeper->would_sleep_on(); });
}

void Kernel::wake_sleepers() {
  std::vector<SleeperEntry> woken;
  woken.swap(sleepers_);
  for (const SleeperEntry& s : woken)
    s.sleeper->wake(now_);
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
  tasks_.wake(task, when);
}

bool Kernel::run_next(SimTime limit) {
  drop_cancelled_front();
  if (heap_.empty() && tasks_.front() == nullptr && !sleepers_.empty())
    wake_sleepers();
  const TaskQueue::Wake* wake = tasks_.front();
  const bool event = !heap_.empty() && heap_.front().time <= limit;
  if (wake != nullptr && wake->time <= limit &&
      (!event || wake->time < heap_.front().time ||
       (wake->time == heap_.front().time && heap_.front().late()))) {
    const SimTime time = wake->time;
    execute_task(tasks_.pop_front(), time);
    return true;
  }
  if (!event)
    return false;
  const Entry entry = heap_.front();
  pop_entry();
  execute(entry);
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
  const SimTime event = next_scheduled_time();
  const TaskQueue::Wake* wake = tasks_.front();
  return wake != nullptr ? std::min(event, wake->time) : event;
}

SimTime Kernel::next_scheduled_time() {
  bool late;
  return next_scheduled_time(late);
}

SimTime Kernel::next_scheduled_time(bool& late) {
  drop_cancelled_front();
  late = !heap_.empty() && heap_.front().late();
  return heap_.empty() ? SimTime::max() : heap_.front().time;
}

bool Kernel::next_wake(SimTime& time, TaskId& task) const {
  const TaskQueue::Wake* wake = tasks_.front();
  if (wake == nullptr)
    return false;
  time = wake->time;
  task = TaskId{wake->task + 1};
  return true;
}

bool Kernel::step() {
  enter_run("step");
  RunningGuard guard(running_);
  run_limit_ = SimTime::zero();
  return run_next(SimTime::max());
}

void Kernel::run() {
  enter_run("run");
  RunningGuard guard(running_);
  run_limit_ = SimTime::max();
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
  run_limit_ = limit;
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
