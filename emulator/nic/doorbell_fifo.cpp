// Doorbell FIFO behaviour: queueing and dropping host doorbells, and the
// pop-into-latches interface the firmware reads them through.
#include "emulator/nic/doorbell_fifo.hpp"

#include <fmt/format.h>

#include "lanai/register_map.h"

namespace lanai::nic {

DoorbellFifo::DoorbellFifo(kernel::StatsRegistry& stats, std::uint32_t node,
                           const profile::NicParams& params)
    : capacity_(params.doorbell_entries), queues_(params.per_vi_doorbells != 0 ? VIA_MAX_VI : 1),
      rung_(stats.counter(fmt::format("node{}.doorbell.rung", node))),
      overflow_count_(stats.counter(fmt::format("node{}.doorbell.overflows", node))),
      bad_vi_(stats.counter(fmt::format("node{}.doorbell.bad_vi", node))) {}

bool DoorbellFifo::ring(const via_doorbell& doorbell, std::uint64_t cycle) {
  std::size_t queue = 0;
  if (per_vi()) {
    // FIFO mode hands any VI number to the firmware to judge; per-VI mode
    // has no queue to put an unknown VI in.
    queue = VIA_DOORBELL_VI(doorbell.vi_queue & LANAI_DB_ENTRY_VI_MASK);
    if (queue >= queues_.size()) {
      bad_vi_.add();
      return false;
    }
  }
  auto& q = queues_[queue];
  if (!has_room(static_cast<std::uint32_t>(queue))) {
    ++overflows_;
    overflow_flag_ = true;
    events_.publish(event_bits());
    overflow_count_.add();
    ++activity_;
    return false;
  }
  q.push_back({doorbell, cycle});
  ++waiting_;
  events_.publish(event_bits());
  rung_.add();
  ++activity_;
  return true;
}

std::deque<DoorbellFifo::Entry>* DoorbellFifo::selected_queue() {
  if (!per_vi())
    return &queues_.front();
  return select_ < queues_.size() ? &queues_[select_] : nullptr;
}

std::uint32_t DoorbellFifo::pop() {
  auto* q = selected_queue();
  if (!q || q->empty())
    return 0;
  latched_ = q->front().doorbell;
  latched_cycle_ = q->front().cycle;
  q->pop_front();
  --waiting_;
  events_.publish(event_bits());
  ++activity_;
  return 1;
}

iss::MmioStatus DoorbellFifo::read(std::uint32_t address, std::uint32_t& value) {
  switch (address) {
  case LANAI_REG_DB_STATUS: {
    const auto* q = selected_queue();
    const std::size_t count = q ? q->size() : 0;
    value = static_cast<std::uint32_t>(count) & LANAI_DB_STATUS_COUNT_MASK;
    if (overflow_flag_)
      value |= LANAI_DB_STATUS_OVERFLOW;
    break;
  }
  case LANAI_REG_DB_POP:
    value = pop();
    break;
  case LANAI_REG_DB_ENTRY_VI:
    value = (latched_.vi_queue & (LANAI_DB_ENTRY_VI_MASK | LANAI_DB_ENTRY_TAG_MASK)) |
            ((latched_.vi_queue & VIA_DOORBELL_RECV) ? LANAI_DB_ENTRY_RECV : 0u);
    break;
  case LANAI_REG_DB_ENTRY_ADDR_LO:
    value = static_cast<std::uint32_t>(latched_.descriptor);
    break;
  case LANAI_REG_DB_ENTRY_ADDR_HI:
    value = static_cast<std::uint32_t>(latched_.descriptor >> 32);
    break;
  case LANAI_REG_DB_ENTRY_HANDLE:
    value = latched_.handle;
    break;
  case LANAI_REG_DB_ENTRY_TIME_LO:
    value = static_cast<std::uint32_t>(latched_cycle_);
    break;
  case LANAI_REG_DB_ENTRY_TIME_HI:
    value = static_cast<std::uint32_t>(latched_cycle_ >> 32);
    break;
  case LANAI_REG_DB_OVERFLOWS:
    value = overflows_;
    break;
  case LANAI_REG_DB_SELECT:
    value = select_;
    break;
  case LANAI_REG_DB_MODE:
    value = per_vi() ? 1u : 0u;
    break;
  case LANAI_REG_DB_CAPACITY:
    value = capacity_;
    break;
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

iss::MmioStatus DoorbellFifo::write(std::uint32_t address, kernel::SimTime /*when*/,
                                    std::uint32_t value) {
  switch (address) {
  case LANAI_REG_DB_STATUS:
    if (value & LANAI_DB_STATUS_OVERFLOW) {
      overflow_flag_ = false;
      events_.publish(event_bits());
    }
    break;
  case LANAI_REG_DB_SELECT:
    select_ = value;
    break;
  case LANAI_REG_DB_POP:
  case LANAI_REG_DB_ENTRY_VI:
  case LANAI_REG_DB_ENTRY_ADDR_LO:
  case LANAI_REG_DB_ENTRY_ADDR_HI:
  case LANAI_REG_DB_ENTRY_HANDLE:
  case LANAI_REG_DB_ENTRY_TIME_LO:
  case LANAI_REG_DB_ENTRY_TIME_HI:
  case LANAI_REG_DB_OVERFLOWS:
  case LANAI_REG_DB_MODE:
  case LANAI_REG_DB_CAPACITY:
    break; // read-only: writes ignored
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

bool DoorbellFifo::has_room(std::uint32_t vi) const {
  if (!per_vi())
    return queues_.front().size() < capacity_;
  return vi >= queues_.size() || queues_[vi].size() < capacity_;
}

std::size_t DoorbellFifo::waiting(std::uint32_t vi) const {
  if (per_vi())
    return vi < queues_.size() ? queues_[vi].size() : 0;
  std::size_t n = 0;
  for (const auto& e : queues_.front())
    if (VIA_DOORBELL_VI(e.doorbell.vi_queue & LANAI_DB_ENTRY_VI_MASK) == vi)
      ++n;
  return n;
}

} // namespace lanai::nic
