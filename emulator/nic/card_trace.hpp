// A card's link to the run's trace recorder: the node's labels and the
// instrumentation port (LANAI_REG_TRACE_TAG, LANAI_REG_TRACE_STATE) the
// firmware writes. Devices record through it; with no recorder attached
// every call returns at once and nothing is kept.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "emulator/kernel/sim_time.hpp"
#include "emulator/trace/trace_recorder.hpp"

namespace lanai::nic {

class CardTrace {
public:
  explicit CardTrace(std::uint32_t node) : node_(node) {}

  void attach(trace::Recorder* recorder) { recorder_ = recorder; }
  bool on() const { return recorder_ != nullptr; }
  std::uint32_t node() const { return node_; }

  // The tag the firmware wrote last: labels the device operations it starts.
  void set_tag(std::uint32_t word) { tag_ = word; }
  std::uint32_t tag() const { return tag_; }
  // The word set_tag() stores to, for a core that writes the tag register
  // in place.
  std::uint32_t* tag_word() { return &tag_; }
  // The scheduler stamp the firmware wrote last, a word at a time: carried
  // by the device operations it starts.
  void set_stamp_word(bool high, std::uint32_t word);
  std::uint64_t stamp() const { return stamp_; }

  // The firmware starts working in state `name` at `when` (empty: back to
  // polling). Closes the LANai span of the previous state.
  void set_state(kernel::SimTime when, std::string_view name);
  // The firmware busy-waits on a device (or works again) in its state: the
  // span closes while it waits and reopens, same name, when it resumes.
  void set_waiting(kernel::SimTime when, bool waiting);

  // Records an event on this node with the given labels; `fill(event)`
  // adds the rest of them.
  void record(trace::Track track, std::string_view name, kernel::SimTime begin, kernel::SimTime end,
              std::uint32_t tag_word) {
    record(track, name, begin, end, tag_word, [](trace::Event&) {});
  }
  template <class Fill>
  void record(trace::Track track, std::string_view name, kernel::SimTime begin, kernel::SimTime end,
              std::uint32_t tag_word, Fill&& fill) {
    if (!recorder_)
      return;
    trace::Event e = labelled(track, name, begin, end, tag_word);
    fill(e);
    recorder_->record(std::move(e));
  }

  // Labels `e` from the VIA packet header at the start of `payload` (if it
  // is one): VI (the sender's when `sending`, else the receiver's), message
  // number and the other node.
  static void label_packet(std::span<const std::uint8_t> payload, bool sending, trace::Event& e);

private:
  trace::Event labelled(trace::Track track, std::string_view name, kernel::SimTime begin,
                        kernel::SimTime end, std::uint32_t tag_word) const;

  trace::Recorder* recorder_ = nullptr;
  std::uint32_t node_;
  std::uint32_t tag_ = 0xFFFFFFFFu;
  std::uint64_t stamp_ = 0;
  std::string state_;
  kernel::SimTime state_since_{};
  bool waiting_ = false;
};

} // namespace lanai::nic
