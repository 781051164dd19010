// The card's host DMA engine: a hardware queue of staged requests between
// host memory (over PCI) and SRAM, served one at a time from its head, each
// checked against the protection table before any byte moves.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "emulator/iss/cpu.hpp"
#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/nic/event_word.hpp"
#include "emulator/nic/protection_table.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "lanai/register_map.h"

namespace lanai::nic {

class CardTrace;

struct HostDmaRequest {
  std::uint16_t id = 0;
  std::uint32_t direction = 0; // LANAI_HDMA_TO_SRAM, _TO_HOST, _TO_SRAM_REMOTE or _TO_HOST_REMOTE
  std::uint64_t host = 0;
  std::uint32_t handle = 0;
  std::uint32_t ptag = 0;
  std::uint32_t sram = 0;
  std::uint32_t length = 0;
  // For traces: when the firmware queued it and the tag it carried.
  kernel::SimTime programmed{};
  std::uint32_t tag = 0xFFFFFFFFu;
  std::uint64_t stamp = 0;
};

class HostDma {
public:
  // Stats: node<N>.hdma.requests (accepted), .bytes_to_sram, .bytes_to_host,
  // .protection_errors, .busy (0/1 level) and .busy_ps (engine busy time).
  HostDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
          const profile::NicParams& params, iss::Cpu& cpu, const ProtectionTable& tpt);
  ~HostDma();
  HostDma(const HostDma&) = delete;
  HostDma& operator=(const HostDma&) = delete;

  // Where started and finished requests are recorded (the card's).
  void set_trace(CardTrace* trace) { trace_ = trace; }
  // What the engine's events may reach (its card's processor; see
  // kernel::EventReach). By default anything.
  void set_reach(kernel::EventReach reach) { reach_ = reach; }

  void set_on_host_write(std::function<void(std::uint64_t, std::uint32_t)> fn) {
    on_host_write_ = std::move(fn);
  }

  // The host DMA register block (LANAI_REG_HDMA_*); `when` is the access time.
  iss::MmioStatus read(std::uint32_t address, std::uint32_t& value);
  iss::MmioStatus write(std::uint32_t address, kernel::SimTime when, std::uint32_t value);
  // Whether a write to `address` uses its time: only a request's append or
  // insert does; the staging registers just keep what was written.
  static bool write_uses_time(std::uint32_t address) {
    return address == LANAI_REG_HDMA_APPEND || address == LANAI_REG_HDMA_INSERT;
  }
  // The word a staging register keeps (a write stores there and does
  // nothing else), null for the other registers.
  std::uint32_t* staging_word(std::uint32_t address) {
    return address >= LANAI_REG_HDMA_HOST_LO && address <= LANAI_REG_HDMA_LENGTH
               ? &staged_[(address - LANAI_REG_HDMA_HOST_LO) / 4]
               : nullptr;
  }

  // LANAI_EV_HDMA_DONE and LANAI_EV_HDMA_IDLE as they stand now.
  std::uint32_t event_bits() const {
    return (done_.empty() ? 0u : std::uint32_t{LANAI_EV_HDMA_DONE}) |
           (waiting_.empty() && !in_service_ ? std::uint32_t{LANAI_EV_HDMA_IDLE} : 0u);
  }
  // Where event_bits() is published from now on (the card's event word).
  void set_event_word(EventWord* word) { events_.attach(word, event_bits()); }

  // Requests queued, including the one in service.
  std::size_t queued() const { return waiting_.size() + (in_service_ ? 1 : 0); }
  bool engine_busy() const { return in_service_.has_value(); }
  std::size_t completions_waiting() const { return done_.size(); }
  bool idle() const { return queued() == 0; }
  // Engine time of one request moving `bytes`: setup plus the PCI transfer.
  kernel::SimTime service_time(std::uint32_t bytes) const;
  // The protection table's verdict on a request, as a LANAI_HDMA_* status.
  std::uint32_t check(const HostDmaRequest& request) const;
  kernel::SimTime busy_time() const { return busy_.total(); }
  BusyMeter& busy_meter() { return busy_; }
  // Requests accepted and completed, completions popped.
  std::uint64_t activity() const { return activity_; }

private:
  EventBits events_{LANAI_EV_HDMA_DONE | LANAI_EV_HDMA_IDLE};
  std::uint32_t commit(std::uint32_t direction, std::uint32_t position, kernel::SimTime when);
  void start_service(kernel::SimTime when);
  void finish_service();
  void move_bytes(const HostDmaRequest& request);
  std::uint32_t pop_completion();

  kernel::Kernel& kernel_;
  kernel::EventReach reach_ = kernel::EventReach::anything;
  iss::Cpu& cpu_;
  const ProtectionTable& tpt_;
  std::uint32_t capacity_;
  std::uint32_t race_entries_;
  kernel::SimTime setup_;
  kernel::Bandwidth pci_;

  // The staging registers, HOST_LO to LENGTH in register order.
  enum Staged : std::uint32_t {
    staged_host_lo,
    staged_host_hi,
    staged_handle,
    staged_ptag,
    staged_sram,
    staged_length,
    staged_count
  };
  static_assert(LANAI_REG_HDMA_LENGTH - LANAI_REG_HDMA_HOST_LO == 4 * (staged_count - 1),
                "the staging registers are consecutive words");
  std::array<std::uint32_t, staged_count> staged_{};
  std::uint32_t result_ = 0;
  std::uint16_t next_id_ = 1;
  std::deque<HostDmaRequest> waiting_;
  std::optional<HostDmaRequest> in_service_;
  std::uint32_t in_service_status_ = 0;
  kernel::EventId completion_event_;
  std::deque<std::uint32_t> done_; // completion words, service order
  std::uint64_t activity_ = 0;
  std::function<void(std::uint64_t, std::uint32_t)> on_host_write_;
  CardTrace* trace_ = nullptr;
  kernel::SimTime service_began_{};

  BusyMeter busy_;
  kernel::Counter& requests_;
  kernel::Counter& bytes_to_sram_;
  kernel::Counter& bytes_to_host_;
  kernel::Counter& protection_errors_;
};

} // namespace lanai::nic
