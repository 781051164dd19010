// The VIs with a send waiting, in serving order. A VI is listed exactly
// while its send ring is not empty and goes to the back after each send,
// which makes the service round-robin without searching.
// Firmware SDK: internal (the shipped engines' own; may change).
#pragma once

#include <stdint.h>

#include <lanai/via_abi.h>

namespace via {

class ReadyList {
public:
  bool empty() const { return head_ == tail_; }
  void push(uint32_t vi) {
    order_[tail_ % VIA_MAX_VI] = static_cast<uint8_t>(vi);
    ++tail_;
  }
  uint32_t pop() {
    const uint32_t vi = order_[head_ % VIA_MAX_VI];
    ++head_;
    return vi;
  }

private:
  uint8_t order_[VIA_MAX_VI] = {};
  uint32_t head_ = 0u;
  uint32_t tail_ = 0u;
};

} // namespace via
