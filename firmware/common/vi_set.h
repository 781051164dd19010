// A set of VI numbers, one bit each, so that loops visit only the VIs that
// have work: the lowest-numbered first. A summary word marks the words that
// are not empty, so an empty set costs the main loop one test however many
// VIs the card has.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

namespace via {

class ViSet {
public:
  static constexpr uint32_t kWords = (VIA_MAX_VI + 31u) / 32u;
  static_assert(kWords <= 32u, "one summary bit per word");

  void add(uint32_t vi) {
    words_[vi >> 5] |= bit(vi);
    summary_ |= 1u << (vi >> 5);
  }
  void remove(uint32_t vi) {
    const uint32_t w = vi >> 5;
    words_[w] &= ~bit(vi);
    if (words_[w] == 0u)
      summary_ &= ~(1u << w);
  }
  bool contains(uint32_t vi) const { return (words_[vi >> 5] & bit(vi)) != 0u; }
  bool empty() const { return summary_ == 0u; }
  void clear() {
    for (uint32_t w = 0u; w < kWords; ++w)
      words_[w] = 0u;
    summary_ = 0u;
  }
  // Calls visit(vi) for each member, in increasing order, as the set was
  // when each word was reached: visit may remove the VI it is given.
  template <typename Visit>
  void for_each(Visit visit) const {
    for (uint32_t words = summary_; words != 0u; words &= words - 1u) {
      const uint32_t w = static_cast<uint32_t>(__builtin_ctz(words));
      for (uint32_t bits = words_[w]; bits != 0u; bits &= bits - 1u)
        visit(w * 32u + static_cast<uint32_t>(__builtin_ctz(bits)));
    }
  }

private:
  static uint32_t bit(uint32_t vi) { return 1u << (vi & 31u); }
  uint32_t words_[kWords] = {};
  uint32_t summary_ = 0u;
};

} // namespace via
