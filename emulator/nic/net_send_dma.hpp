// The card's network send DMA: takes one buffer of source-route bytes and
// payload from SRAM and, after its start-up time, streams it into the
// network port as one packet; idle again once the packet's tail has left.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

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

class NetSendDma : public NetworkDma {
public:
  // Takes over the port's send-completion callback. Stats: node<N>.nsdma.
  // packets and .bytes (payload, counted when the tail has left), .busy
  // (0/1 level) and .busy_ps (busy time).
  NetSendDma(kernel::Kernel& kernel, kernel::StatsRegistry& stats, std::uint32_t node,
             const profile::HardwareProfile& profile, iss::Cpu& cpu, wire::NetworkPort& port);
  ~NetSendDma();

  // The send DMA register block (LANAI_REG_NSDMA_*); `when` is the access time.
  iss::MmioStatus read(std::uint32_t address, std::uint32_t& value);
  iss::MmioStatus write(std::uint32_t address, kernel::SimTime when, std::uint32_t value);
  // Only START uses its time (MmioDevice).
  static bool write_uses_time(std::uint32_t address) { return address == LANAI_REG_NSDMA_START; }
  // The word a staging register keeps (a write stores there and does
  // nothing else), null for the other registers.
  std::uint32_t* staging_word(std::uint32_t address) {
    switch (address) {
    case LANAI_REG_NSDMA_SRAM:
      return &sram_;
    case LANAI_REG_NSDMA_LENGTH:
      return &length_;
    case LANAI_REG_NSDMA_ROUTE_LEN:
      return &route_len_;
    default:
      return nullptr;
    }
  }

  // LANAI_EV_NSDMA_IDLE as it stands now.
  std::uint32_t event_bits() const { return busy_ ? 0u : std::uint32_t{LANAI_EV_NSDMA_IDLE}; }
  // Where event_bits() is published from now on (the card's event word).
  void set_event_word(EventWord* word) { events_.attach(word, event_bits()); }

  bool busy() const { return busy_; }
  std::uint32_t completed() const { return completed_; }
  BusyMeter& busy_meter() { return meter_; }
  // Packets started and completed.
  std::uint64_t activity() const { return activity_; }

private:
  EventBits events_{LANAI_EV_NSDMA_IDLE};
  std::uint32_t start(kernel::SimTime when);
  void hand_off();
  void on_sent(std::uint64_t packet_id);

  std::uint32_t max_payload_;

  std::uint32_t sram_ = 0, length_ = 0, route_len_ = 0;
  bool busy_ = false;
  bool in_port_ = false; // the port accepted our packet and sends it
  // Read from SRAM at START and held until the start-up time has passed
  // (or, should the port be busy, until it is free).
  std::optional<wire::Packet> pending_;
  std::uint32_t payload_bytes_ = 0;
  std::uint64_t packet_id_ = 0;
  std::uint64_t next_sequence_ = 0;
  std::uint32_t completed_ = 0;
  kernel::EventId hand_off_event_;
  kernel::SimTime started_{}, handed_off_{};
  std::uint32_t tag_ = 0xFFFFFFFFu;
  std::uint64_t stamp_ = 0;
  std::vector<std::uint8_t> head_; // the packet's first bytes, for labels
};

} // namespace lanai::nic
