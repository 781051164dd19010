// Collects the events of one run in memory, in the order they are recorded,
// or hands each to a consumer as it is recorded and keeps nothing (a long
// run that measures from the event stream). Devices hold a pointer to it
// (null: tracing off, nothing recorded) and keep, per node, the tag the
// firmware last wrote to LANAI_REG_TRACE_TAG.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "emulator/trace/trace_event.hpp"

namespace lanai::trace {

class Recorder {
public:
  void record(Event&& event) {
    if (consumer_)
      consumer_(event);
    else
      events_.push_back(std::move(event));
  }
  // From now on events go to `consumer` instead of being kept (empty: keep).
  void set_consumer(std::function<void(const Event&)> consumer) { consumer_ = std::move(consumer); }
  const std::vector<Event>& events() const { return events_; }
  // The events sorted by (begin, node, track), stable for equal keys: the
  // order a reader expects, independent of which device recorded first.
  std::vector<Event> sorted() const;
  void clear() { events_.clear(); }

private:
  std::vector<Event> events_;
  std::function<void(const Event&)> consumer_;
};

// The firmware's tag word (VI << 16 | message & 0xFFFF) split into labels;
// all-ones fields (never written) stay unlabelled.
struct Tag {
  std::uint32_t vi = no_label;
  std::uint32_t msg = no_label;
};
Tag decode_tag(std::uint32_t word);

} // namespace lanai::trace
