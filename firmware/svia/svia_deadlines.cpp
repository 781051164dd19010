// The card's countdown timer, shared by the firmware's deadlines: the send
// window's next retransmission, the delayed acknowledgements' and flow
// control's next credit request. The timer runs for the earliest of those
// set and only then, so a running
// timer means the firmware has something to do later (the launcher tells
// a wait for it from a deadlock), and the main loop notices a deadline by
// the event word it reads anyway, with no clock read per pass.
#include <lanai/register_map.h>

#include "common/flow_control.h"
#include "common/sram_placement.h"
#include "svia.h"

namespace svia {

namespace {

bool set_[2];
uint32_t due_[2]; // LANai cycle each is due at
// Flow control's, in memory zeroed at load, so that start-up is unchanged.
VIA_ZEROED_AT_LOAD bool credit_set_{};
VIA_ZEROED_AT_LOAD uint32_t credit_due_{};

void arm() {
  bool any = false;
  uint32_t first = 0u;
  for (uint32_t d = 0u; d < 2u; ++d) {
    if (!set_[d])
      continue;
    if (!any || static_cast<int32_t>(due_[d] - first) < 0)
      first = due_[d];
    any = true;
  }
  if (credit_set_ && (!any || static_cast<int32_t>(credit_due_ - first) < 0)) [[unlikely]] {
    first = credit_due_;
    any = true;
  }
  if (!any) {
    lanai_mmio_write(LANAI_REG_TIMER, 0u);
    return;
  }
  const int32_t left = static_cast<int32_t>(first - cycle_now());
  lanai_mmio_write(LANAI_REG_TIMER, left > 0 ? static_cast<uint32_t>(left) : 1u);
}

} // namespace

uint32_t cycle_now() { return lanai_mmio_read(LANAI_REG_CYCLE_LO); }

void set_deadline(Deadline which, uint32_t cycle) {
  const uint32_t d = static_cast<uint32_t>(which);
  if (set_[d] && due_[d] == cycle)
    return;
  set_[d] = true;
  due_[d] = cycle;
  arm();
}

void clear_deadline(Deadline which) {
  const uint32_t d = static_cast<uint32_t>(which);
  if (!set_[d])
    return;
  set_[d] = false;
  arm();
}

void deadline_reached() {
  // Both are looked at; each handler sets its deadline again if it still
  // waits for something.
  set_[0] = set_[1] = false;
  credit_set_ = false;
  lanai_mmio_write(LANAI_REG_TIMER, 0u);
  // An acknowledgement already in may settle the packet that is due (one
  // that came while a packet left, say): a resend is then not needed.
  (void)take_waiting_ack();
  check_retransmissions();
  send_delayed_acks();
  via::flow::timer();
  if (acks_waiting())
    send_next_ack();
}

void wake_timer_by(uint32_t cycle) {
  if (credit_set_ && static_cast<int32_t>(cycle - credit_due_) >= 0)
    return;
  credit_set_ = true;
  credit_due_ = cycle;
  arm();
}

} // namespace svia
