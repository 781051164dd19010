// The card's network receive DMA: armed with one SRAM buffer it lets the
// network port take the next packet, copies its payload into the buffer and
// holds it (DONE) until the firmware acknowledges; the link is held in STOP
// whenever it is not armed, so packets wait in the fabric.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "emulator/iss/cpu.hpp"
#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/nic/event_word.hpp"
#include "emulator/nic/network_dma.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/network_port.hpp"
#include "lanai/register_map.h"

namespace lanai::nic {

class CardTrace;

class NetRecvDma : public NetworkDma {
public:
  enum class State : std::uint8_t {
    idle,      // not armed; the port is in STOP
    armed,     // waiting for a packet
    receiving, // a packet arrived; its payload is being written to SRAM
    done,      // the packet is in the buffer until acknowledged
  };

  // Takes over the port's packet callback and its stop/go control. Stats:
  // node<N>.nrdma.packets, .bytes (payload written to SRAM), .busy and
  // .busy_ps (from a packet's tail to its DMA done).
  NetRecvDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
             const profile::NicParams& params, iss::Cpu& cpu, wire::NetworkPort& port);
  ~NetRecvDma();

  // The receive DMA register block (LANAI_REG_NRDMA_*); `when` is the access time.
  iss::MmioStatus read(std::uint32_t address, std::uint32_t& value);
  iss::MmioStatus write(std::uint32_t address, kernel::SimTime when, std::uint32_t value);
  // Only ARM uses its time (MmioDevice).
  static bool write_uses_time(std::uint32_t address) { return address == LANAI_REG_NRDMA_ARM; }
  // The word a staging register keeps (a write stores there and does
  // nothing else), null for the other registers.
  std::uint32_t* staging_word(std::uint32_t address) {
    switch (address) {
    case LANAI_REG_NRDMA_SRAM:
      return &sram_;
    case LANAI_REG_NRDMA_CAPACITY:
      return &capacity_;
    default:
      return nullptr;
    }
  }

  // LANAI_EV_NRDMA_DONE as it stands now.
  std::uint32_t event_bits() const {
    return state_ == State::done ? std::uint32_t{LANAI_EV_NRDMA_DONE} : 0u;
  }
  // Where event_bits() is published from now on (the card's event word).
  void set_event_word(EventWord* word) { events_.attach(word, event_bits()); }

  // The LANai cycle at a virtual time, for NRDMA_TIME (the card's core).
  void set_clock(std::function<std::uint64_t(kernel::SimTime)> cycle_at) {
    cycle_at_ = std::move(cycle_at);
  }

  State state() const { return state_; }
  // The NRDMA_STATUS word.
  std::uint32_t status() const;
  // No packet being received or held.
  bool idle() const { return state_ == State::idle || state_ == State::armed; }
  const BusyMeter& busy_meter() const { return meter_; }
  // Arms, packets received and acknowledgements.
  std::uint64_t activity() const { return activity_; }

private:
  EventBits events_{LANAI_EV_NRDMA_DONE};
  std::uint32_t arm(kernel::SimTime when);
  void on_packet(wire::Packet packet, bool checksum_ok);
  void finish();

  std::uint32_t sram_ = 0, capacity_ = 0;
  State state_ = State::idle;
  // The armed buffer, fixed at ARM.
  std::uint32_t buffer_ = 0, buffer_capacity_ = 0;
  std::optional<wire::Packet> packet_;
  bool checksum_ok_ = true;
  std::uint32_t flags_ = 0; // BAD_CRC and TRUNCATED of the held packet
  std::uint32_t length_ = 0, source_ = 0;
  kernel::EventId event_; // the pending GO or the pending DMA done
  kernel::SimTime arrived_{};
  std::uint64_t arrived_cycle_ = 0; // NRDMA_TIME of the held packet
  std::function<std::uint64_t(kernel::SimTime)> cycle_at_;
};

} // namespace lanai::nic
