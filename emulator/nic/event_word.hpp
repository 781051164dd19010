// The card's event word (LANAI_REG_EVENT_STATUS) as its devices keep it:
// each device publishes its own bits whenever its state changes, so that
// the firmware's reads, the most frequent register access there is, are a
// single load. The devices' event_bits() stay the definition; the card
// checks the word against them in builds with assertions.
#pragma once

#include <cstdint>

namespace lanai::nic {

class EventWord {
public:
  std::uint32_t bits() const { return bits_; }
  // The bits of `mask` become those of `bits`.
  void publish(std::uint32_t mask, std::uint32_t bits) { bits_ = (bits_ & ~mask) | (bits & mask); }

private:
  std::uint32_t bits_ = 0;
};

// A device's side: the word it publishes to (none for a device on its
// own, as in its unit tests) and the bits that are its own.
class EventBits {
public:
  explicit EventBits(std::uint32_t mask) : mask_(mask) {}

  // From now on the device publishes to `word`, starting with `bits`.
  void attach(EventWord* word, std::uint32_t bits) {
    word_ = word;
    publish(bits);
  }
  void publish(std::uint32_t bits) const {
    if (word_ != nullptr)
      word_->publish(mask_, bits);
  }

private:
  EventWord* word_ = nullptr;
  std::uint32_t mask_;
};

} // namespace lanai::nic
