// The discrete-event scheduler that owns virtual time. Every component of the
// emulated machine advances only by scheduling callbacks here, and the fixed
// execution order ((time, insertion order) for events; tasks after the
// events of their time, in task order) is what makes runs reproducible.
#pragma once

#include "emulator/kernel/callback.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/stable_chunks.hpp"
#include "emulator/kernel/task_queue.hpp"

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lanai::kernel {

// Which processors an event may change or read what they depend on: any
// (the default), none (a switch routing a packet, a link handed back to a
// switch), only one (a device of one card, whose events touch that card
// and nothing another card's processor reads), named by a value
// Kernel::new_processor_reach() gave, or those its callback brings up
// itself (a host program's, which reaches a card only through the card's
// host interface, and that brings the card's processor up first: see
// Kernel::deferred_advance()). Sleeping processors an event cannot reach
// stay where they are (see Kernel::Sleeper).
struct EventReach {
  // 0: anything; 1: no processor; 2: those brought up; 3 + n: processor n
  std::uint32_t code = 0;

  static const EventReach anything;
  static const EventReach not_processors;
  static const EventReach brought_up;
  static constexpr EventReach processor(std::uint32_t n) { return {n + 3}; }
  friend constexpr bool operator==(EventReach, EventReach) = default;
};
inline constexpr EventReach EventReach::anything{0};
inline constexpr EventReach EventReach::not_processors{1};
inline constexpr EventReach EventReach::brought_up{2};

// Names one scheduled event so it can be cancelled. A default-constructed id
// names nothing; ids are never reused within one Kernel.
struct EventId {
  std::uint64_t sequence = 0; // the event's place in scheduling order, from 1
  std::uint32_t slot = 0;     // where the kernel keeps its callback

  constexpr bool valid() const { return sequence != 0; }
  friend constexpr auto operator<=>(EventId, EventId) = default;
};

class Kernel {
public:
  Kernel() = default;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  SimTime now() const { return now_; }

  // Runs `callback` at time `when`. Events at equal times run in the order
  // they were scheduled, including events scheduled for the current time
  // from inside a callback: they run after everything already queued for
  // now. Throws std::logic_error if `when` lies before now(), and
  // std::invalid_argument for an empty callback. The label is kept for
  // diagnostics only (current_label(), error messages), by reference: its
  // characters must stay put until the event has run or been cancelled (a
  // literal, or a name the scheduling component keeps).
  EventId schedule_at(SimTime when, Callback callback, std::string_view label = {},
                      EventReach reach = EventReach::anything);
  EventId schedule_in(SimTime delay, Callback callback, std::string_view label = {},
                      EventReach reach = EventReach::anything);
  // The same, but the event runs after the task wakes of its time too: for
  // what a processor's register access starts at the very time of the
  // access, which must come after every processor's instruction of that
  // time (those of processors built earlier have run already).
  EventId schedule_after_tasks(SimTime when, Callback callback, std::string_view label = {});
  // What an access at time `access` starts `delay` later: schedule_at, or
  // schedule_after_tasks if there is no delay.
  EventId schedule_from_access(SimTime access, SimTime delay, Callback callback,
                               std::string_view label = {},
                               EventReach reach = EventReach::anything) {
    return schedule(access + delay, std::move(callback), label, delay == SimTime::zero(), reach);
  }

  // Withdraws a pending event. Returns false, and does nothing, if the event
  // has already run, was already cancelled or never existed.
  bool cancel(EventId id);
  bool is_pending(EventId id) const { return slot_of(id) != no_slot; }

  // Runs events until none remain or a callback calls stop().
  void run();

  // Runs every event with time <= limit, then sets now() to `limit`, so a
  // caller alternating run_until with external work sees time advance
  // uniformly whether or not events were due. If a callback calls stop(),
  // now() stays at that event's time. Throws std::logic_error if `limit`
  // lies before now().
  void run_until(SimTime limit);

  // Runs the single earliest event; returns false if there was none.
  bool step();

  // How far the run in progress goes: run_until()'s limit, SimTime::max()
  // for run(), and zero for step() (one event, nothing beyond it). A
  // component that goes ahead of the kernel's time within a callback (a
  // host program's polls) stays within it, as it stays before the next
  // event: a caller that stops at the limit then finds everything as it
  // would have been.
  SimTime run_limit() const { return run_limit_; }

  // Makes the innermost run() or run_until() return after the current
  // callback finishes. A stop requested outside a run is forgotten when the
  // next run starts, so a stale request cannot cut a later run short.
  void stop() { stop_requested_ = true; }

  // Recurring tasks: `callback` registered once and run at each wake, which
  // costs less than an event, for a component that reschedules itself
  // after every run (a processor's slices). A wake runs after every event of
  // its time, including events scheduled for that time while it waits,
  // except those scheduled with schedule_after_tasks(). Wakes of one time
  // run in the order their tasks were added. So where a task stands among
  // events and other tasks never depends on when it was woken.
  TaskId add_task(Callback callback, std::string_view label);
  // Queues the task's next run at `when`. Throws std::logic_error if the
  // task is unknown or removed, already has a wake pending, or `when` lies
  // before now().
  void wake_task(TaskId task, SimTime when);
  // The task never runs again; a pending wake is withdrawn.
  void remove_task(TaskId task) { tasks_.remove(task); }
  bool task_pending(TaskId task) const { return tasks_.pending(task); }
  // Task wakes pending (a run's work cannot take any back: only the kernel
  // pops them).
  std::size_t wakes_pending() const { return tasks_.pending_count(); }

  // Events scheduled and neither run nor cancelled, and pending task wakes.
  std::size_t pending() const { return live_ + tasks_.pending_count(); }
  std::uint64_t events_executed() const { return events_executed_; }

  // Time of the earliest pending event or wake, or SimTime::max() if there
  // is none.
  SimTime next_event_time();
  // Time of the earliest pending event, task wakes left out, or
  // SimTime::max() if there is none; `late`: that event runs after the
  // task wakes of its time (schedule_after_tasks).
  SimTime next_scheduled_time();
  SimTime next_scheduled_time(bool& late);
  // The earliest pending task wake: false if there is none.
  bool next_wake(SimTime& time, TaskId& task) const;
  // A task whose runs change nothing another task depends on sooner than
  // `lookahead` after they start (a processor whose only way out of its own
  // memory is its device registers, and whose devices reach another card
  // no sooner than the wire allows) lets other tasks run their private work
  // that far past its wake: see wake_reach().
  void set_task_lookahead(TaskId task, SimTime lookahead) { tasks_.set_lookahead(task, lookahead); }
  // The earliest time at which a pending wake's run can reach `self`'s
  // private work: its time plus its task's lookahead (a task without one:
  // its time, 1 ps later if added after `self`), or SimTime::max() with
  // none pending.
  SimTime wake_reach(TaskId self) const { return tasks_.earliest_reach(self.value - 1); }

  // A component that has stopped waking itself while nothing it depends on
  // changes (a processor polling in a loop that repeats): before each event
  // it is brought up to the event's time, and after the event it is asked
  // whether it may sleep on; if not, it wakes its task and leaves the list.
  // Events that cannot reach it skip both (EventReach::not_processors, and
  // those of another processor if it was added with a reach of its own):
  // it stays behind and is brought up to a later event's time in one go,
  // which is the same, since nothing it depends on changed in between.
  // Events then see it exactly where it would stand had it run all along.
  // An event whose reach is EventReach::brought_up leaves every sleeper
  // where it is: its callback brings up those it may change before it
  // changes them (bring_up), and afterwards each is asked to settle: one
  // brought up is asked whether it may sleep on, as after any event; one
  // not brought up must find nothing it depends on changed, or throws.
  // Tasks cannot change what a sleeper depends on, so they do not wake it.
  // Should nothing else be pending, the sleepers are woken (they run on, as
  // they would have).
  class Sleeper {
  public:
    // Up to the event's time; `late`: the event comes after the task wakes
    // of its time (schedule_after_tasks).
    virtual void advance_to(SimTime time, bool late) = 0;
    virtual bool sleeps_on() = 0;
    // Whether it would sleep on if asked now, changing nothing: nothing it
    // depends on has changed since it fell asleep.
    virtual bool would_sleep_on() = 0;
    // Leaves the sleep: wakes its task no earlier than `now`.
    virtual void wake(SimTime now) = 0;
    // Up to the time of the event of reach EventReach::brought_up under way,
    // at the callback's request (Kernel::bring_up): as advance_to, but it
    // must find nothing it depends on changed since it last checked (the
    // change would come before the advance, which must see the state
    // before it), or it throws std::logic_error.
    virtual void bring_up_to(SimTime time, bool late) = 0;
    // After an event of reach EventReach::brought_up, whose callback brought
    // it up if `brought_up`: whether it sleeps on (sleeps_on()); if it was
    // not brought up, it must find nothing it depends on changed, or it
    // throws std::logic_error (something changed it without bringing it up
    // first, and it can no longer stand where it would have).
    virtual bool settle(bool brought_up) = 0;

  protected:
    ~Sleeper() = default;
  };
  // `own`: the reach of the events that concern it alone (from
  // new_processor_reach()); with the default, every event that may reach a
  // processor reaches it.
  void add_sleeper(Sleeper& sleeper, EventReach own = EventReach::anything) {
    sleepers_.push_back({&sleeper, own.code});
  }
  // A reach of its own for one more processor.
  EventReach new_processor_reach();
  void remove_sleeper(Sleeper& sleeper);
  bool has_scheduled_events() const { return live_ > 0; }
  // Whether every sleeper would sleep on now (see Sleeper::would_sleep_on):
  // what the callback running has done so far wakes none of them.
  bool sleepers_would_sleep_on() const;
  // Events (not task wakes) run so far.
  std::uint64_t scheduled_events_executed() const { return scheduled_executed_; }
  // While the callback of an event of reach EventReach::brought_up runs:
  // its time and lateness, the advance it leaves to the sleepers it may
  // change. Null otherwise.
  struct DeferredAdvance {
    SimTime time;
    bool late = false;
  };
  const DeferredAdvance* deferred_advance() const { return deferring_ ? &deferred_ : nullptr; }
  // Brings `sleeper` up to the event whose callback runs, if it is one of
  // reach EventReach::brought_up and has not brought it up yet: what the
  // host side of a card calls before it reads or changes anything the
  // card's processor reads or writes. Does nothing otherwise.
  void bring_up(Sleeper& sleeper);

  // Label of the event or task whose callback is running; empty outside
  // callbacks.
  std::string_view current_label() const { return current_label_; }

private:
  // A scheduled event's callback and label live in a slot, reused once
  // the event has run or been cancelled; the heap orders small entries
  // that name their slot. A slot whose sequence no longer matches its
  // entry's was cancelled, and the entry is skipped when it surfaces,
  // which keeps cancel O(1) instead of a heap search.
  struct Slot {
    Callback callback;
    std::string_view label;     // the caller's characters (schedule_at)
    std::uint64_t sequence = 0; // of the pending event in it; 0: none
  };
  struct Entry {
    SimTime time;
    std::uint64_t sequence;
    std::uint32_t slot;
    // Bit 0: late (after the task wakes of its time); the rest: the
    // EventReach code. One word written whole: bit-fields here were
    // written a byte at a time and read back as a word, which stalls the
    // processor on every event scheduled.
    std::uint32_t marks;

    static std::uint32_t mark(bool late, EventReach reach) {
      return reach.code << 1 | (late ? 1u : 0u);
    }
    bool late() const { return (marks & 1u) != 0; }
    std::uint32_t reach() const { return marks >> 1; }
  };
  struct SleeperEntry {
    Sleeper* sleeper;
    std::uint32_t own;       // EventReach::code
    bool brought_up = false; // by the event of reach brought_up under way
  };
  // Whether an event of reach `reach` reaches a sleeper of its own accord.
  static bool reaches(std::uint32_t reach, const SleeperEntry& s) {
    return reach == EventReach::anything.code ||
           (reach > EventReach::brought_up.code &&
            (s.own == EventReach::anything.code || s.own == reach));
  }
  void execute_deferring(const Entry& entry, bool late, Slot& s);
  // Wakes the sleepers from `from` on that the event under way brought up,
  // and takes them off the list: after an error, what it changed for them
  // is not known.
  void wake_brought_up(std::vector<SleeperEntry>::iterator from);

  // In heap_ (timed_heap.hpp): the root is the smallest (time, sequence).

  static constexpr std::uint32_t no_slot = ~std::uint32_t{0};
  // The slot of a pending event, or no_slot.
  std::uint32_t slot_of(EventId id) const {
    return id.valid() && id.slot < slots_.size() && slots_[id.slot].sequence == id.sequence
               ? id.slot
               : no_slot;
  }
  bool entry_live(const Entry& e) const { return slots_[e.slot].sequence == e.sequence; }
  void push_entry(Entry entry);
  void pop_entry();
  // Discards cancelled entries sitting at the root of the heap.
  void drop_cancelled_front();
  void execute(Entry entry);
  void execute_task(TaskId task, SimTime time);
  void wake_sleepers();
  EventId schedule(SimTime when, Callback&& callback, std::string_view label, bool late,
                   EventReach reach);
  // Runs the earliest event or task wake if it lies at or before `limit`;
  // returns false if there is none.
  bool run_next(SimTime limit);
  void enter_run(const char* who);

  std::vector<Entry> heap_;
  // Slots stay where they are while callbacks schedule more events.
  StableChunks<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::size_t live_ = 0; // events due to run
  // The sequence at the heap's root when it was last found live (0: not
  // known), which spares a look at its slot per look at the root.
  std::uint64_t live_front_ = 0;
  SimTime now_ = SimTime::zero();
  std::uint64_t next_sequence_ = 1;
  std::uint64_t events_executed_ = 0;
  std::uint64_t scheduled_executed_ = 0;
  std::vector<SleeperEntry> sleepers_;
  // The time of the last late event run (if any).
  bool late_ran_ = false;
  SimTime late_time_{};
  bool deferring_ = false; // an event of reach brought_up runs
  DeferredAdvance deferred_;
  std::uint32_t processors_named_ = 0;
  bool stop_requested_ = false;
  bool running_ = false;
  SimTime run_limit_ = SimTime::max();
  TaskQueue tasks_;
  // The running event's label lives in its slot or its task while the
  // callback runs (callbacks never nest).
  std::string_view current_label_;
};

} // namespace lanai::kernel
