// The card's doorbell FIFO: the posted PCI writes hosts use to tell the
// firmware about new descriptors, kept whole, either merged into one FIFO
// in arrival order (LANai 7) or in one queue per VI.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/sim_time.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/nic/event_word.hpp"
#include "lanai/via_abi.h"
#include "emulator/profile/hardware_profile.hpp"
#include "lanai/register_map.h"

namespace lanai::nic {

class DoorbellFifo {
public:
  // Stats: node<N>.doorbell.rung (accepted), .overflows (dropped on a full
  // queue), .bad_vi (per-VI mode: dropped for naming no VI).
  DoorbellFifo(kernel::StatsRegistry& stats, std::uint32_t node, const profile::NicParams& params);

  // One doorbell write from the host, reaching the queue at LANai cycle
  // `cycle` (kept with the entry). False if it was dropped.
  bool ring(const via_doorbell& doorbell, std::uint64_t cycle);

  // The doorbell register block (LANAI_REG_DB_*).
  iss::MmioStatus read(std::uint32_t address, std::uint32_t& value);
  iss::MmioStatus write(std::uint32_t address, kernel::SimTime when, std::uint32_t value);
  // No write of this block uses its time (MmioDevice).
  static bool write_uses_time(std::uint32_t /*address*/) { return false; }
  // No register of the block is a plain staging word.
  std::uint32_t* staging_word(std::uint32_t /*address*/) { return nullptr; }

  // LANAI_EV_DOORBELL and LANAI_EV_DOORBELL_OVERFLOW as they stand now.
  std::uint32_t event_bits() const {
    return (waiting_ > 0 ? std::uint32_t{LANAI_EV_DOORBELL} : 0u) |
           (overflow_flag_ ? std::uint32_t{LANAI_EV_DOORBELL_OVERFLOW} : 0u);
  }
  // Where event_bits() is published from now on (the card's event word).
  void set_event_word(EventWord* word) { events_.attach(word, event_bits()); }

  bool per_vi() const { return queues_.size() > 1; }
  std::uint32_t capacity() const { return capacity_; }
  // True if a doorbell for `vi` would find room (in FIFO mode, in the one
  // queue; per VI, in its own; a VI no queue serves is refused, not kept
  // waiting).
  bool has_room(std::uint32_t vi) const;
  // Entries waiting in all queues, or those of one VI.
  std::size_t waiting() const { return waiting_; }
  std::size_t waiting(std::uint32_t vi) const;
  std::uint64_t overflows() const { return overflows_; }
  bool overflow_flag() const { return overflow_flag_; }
  // Doorbells taken and entries popped.
  std::uint64_t activity() const { return activity_; }

private:
  EventBits events_{LANAI_EV_DOORBELL | LANAI_EV_DOORBELL_OVERFLOW};
  struct Entry {
    via_doorbell doorbell;
    std::uint64_t cycle; // when it reached the queue
  };
  std::deque<Entry>* selected_queue();
  std::uint32_t pop();

  std::uint32_t capacity_;
  std::vector<std::deque<Entry>> queues_; // one in FIFO mode, VIA_MAX_VI per-VI
  std::size_t waiting_ = 0;               // entries in all queues
  std::uint32_t select_ = 0;
  via_doorbell latched_{};
  std::uint64_t latched_cycle_ = 0;
  std::uint32_t overflows_ = 0;
  bool overflow_flag_ = false;
  std::uint64_t activity_ = 0;
  kernel::Counter& rung_;
  kernel::Counter& overflow_count_;
  kernel::Counter& bad_vi_;
};

} // namespace lanai::nic
