// One Myrinet-style NIC: the LANai core running its firmware, SRAM, the
// system registers and the card's devices (doorbell FIFO, host DMA with its
// request queue, network send and receive DMA) behind the register map of
// firmware/include/lanai/register_map.h, attached to one network port.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "emulator/iss/cpu.hpp"
#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/kernel/statistics.hpp"
#include "lanai/via_abi.h"
#include "emulator/loader/firmware_linker.hpp"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/nic/card_trace.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/machine/system_registers.hpp"
#include "emulator/nic/protection_table.hpp"
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/wire/network_port.hpp"

namespace lanai::nic {

class DoorbellFifo;
class HostDma;
class NetSendDma;
class NetRecvDma;
class CardRegisters;

class Card {
public:
  // Statistics are named "node<N>.<device>.<what>".
  Card(kernel::Kernel& kernel, kernel::StatsRegistry& stats,
       const profile::HardwareProfile& profile, std::uint32_t node, wire::NetworkPort& port,
       ProtectionTable& tpt, const loader::LinkedImage& firmware);
  ~Card();
  Card(const Card&) = delete;
  Card& operator=(const Card&) = delete;

  // Starts the firmware at `_start` at the kernel's current time. The core
  // then runs until it halts or faults (firmware normally never returns).
  void start();

  // --- The host's side of the PCI bus ---------------------------------
  // One posted doorbell write. Returns false if the queue was full and the
  // doorbell was dropped (the host cannot see this on real hardware; it is
  // reported for statistics and tests).
  bool ring_doorbell(const via_doorbell& doorbell);
  // True if a doorbell of `vi` would be queued, not dropped: what a library
  // knows from its count of the doorbells it rang and the card has taken,
  // so that it waits rather than ring into a full queue.
  bool doorbell_room(std::uint32_t vi) const;
  // Programmed I/O into SRAM (the driver fills the configuration block).
  // Each, like ring_doorbell, first brings a sleeping core up to the host
  // program's event under way (machine::ClockedCore::bring_up): the host
  // sees and changes SRAM as it stands at that time.
  void write_sram(std::uint32_t address, std::span<const std::uint8_t> bytes);
  void write_sram_word(std::uint32_t address, std::uint32_t value); // big endian
  std::uint32_t read_sram_word(std::uint32_t address);
  // A word of SRAM as it stands, for a look from outside the run (its
  // statistics, after it): no core is brought up.
  std::uint32_t sram_word(std::uint32_t address) const { return cpu_.read_word(address); }
  // SRAM address of a firmware symbol; throws std::out_of_range naming it.
  std::uint32_t symbol(std::string_view name) const;
  bool has_symbol(std::string_view name) const;

  // Called after the host DMA wrote host memory [address, address+length).
  void set_on_host_write(std::function<void(std::uint64_t address, std::uint32_t length)> fn);
  // Records what the devices and the firmware's instrumentation port do
  // into `recorder` from now on (nullptr: stop). The recorder must outlive
  // the card or be detached first.
  void set_trace(trace::Recorder* recorder) { trace_.attach(recorder); }

  // Called when firmware writes LANAI_REG_HOST_INTERRUPT.
  void set_on_host_interrupt(std::function<void(std::uint32_t word)> fn);

  // --- State for run control, reports and tests ------------------------
  std::uint32_t node() const { return node_; }
  bool firmware_running() const;
  // Empty unless the core faulted or halted; then a readable account.
  std::string stop_report() const;
  // Grows with every device operation started or completed and every
  // doorbell and packet: a run with no growth makes no progress.
  std::uint64_t activity() const;
  // No doorbell waiting, no DMA queued or in flight, no packet held.
  bool devices_idle() const;
  // The countdown timer is counting: the firmware has asked to be woken
  // later (a retransmission or an acknowledgement it will send).
  bool timer_running() const;
  const std::string& console() const;

  iss::Cpu& cpu() { return cpu_; }
  const iss::Cpu& cpu() const { return cpu_; }
  // The layout and symbols of the firmware image the card was loaded with
  // (its bytes are in the SRAM).
  const loader::LinkedImage& image() const { return image_; }
  machine::ClockedCore& core() { return core_; }
  // The register window as the core sees it (device tests drive it directly).
  iss::MmioBus& bus();
  DoorbellFifo& doorbells() { return *doorbells_; }
  HostDma& host_dma() { return *hdma_; }
  NetSendDma& send_dma() { return *nsdma_; }
  NetRecvDma& recv_dma() { return *nrdma_; }
  // HDMA and NSDMA busy at the same time: node<N>.hdma_nsdma.overlap
  // (0/1 level) and node<N>.hdma_nsdma.overlap_ps.
  const OverlapMeter& hdma_nsdma_overlap() const { return hdma_nsdma_; }
  // The LANai's work, as the firmware marks it on the instrumentation port:
  // node<N>.lanai.busy (0/1 level) and node<N>.lanai.busy_ps.
  const BusyMeter& lanai_work() const { return lanai_work_; }

private:
  kernel::Kernel& kernel_;
  std::uint32_t node_;
  CardTrace trace_;
  loader::LinkedImage image_;
  machine::SystemRegisters system_;
  std::unique_ptr<CardRegisters> registers_;
  iss::Cpu cpu_;
  machine::ClockedCore core_;
  std::unique_ptr<DoorbellFifo> doorbells_;
  std::unique_ptr<HostDma> hdma_;
  std::unique_ptr<NetSendDma> nsdma_;
  std::unique_ptr<NetRecvDma> nrdma_;
  OverlapMeter hdma_nsdma_;
  BusyMeter lanai_work_;
  std::optional<iss::StopReason> stopped_; // set when the core has stopped
};

} // namespace lanai::nic
