// The card's register window as the LANai sees it: decodes each access to
// the system block (console, exit, cycle counter, event status, timer, host
// interrupt, node id) or to the doorbell, host DMA and network DMA blocks.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "emulator/iss/cpu.hpp"
#include "emulator/iss/mmio_bus.hpp"
#include "emulator/kernel/event_queue.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/machine/system_registers.hpp"
#include "emulator/nic/event_word.hpp"

namespace lanai::nic {

class DoorbellFifo;
class HostDma;
class NetSendDma;
class NetRecvDma;
class CountdownTimer;
class CardTrace;
class BusyMeter;

// What the decoder dispatches to; all owned by the card.
struct CardDevices {
  iss::Cpu* cpu = nullptr;
  machine::ClockedCore* core = nullptr;
  DoorbellFifo* doorbells = nullptr;
  HostDma* hdma = nullptr;
  NetSendDma* nsdma = nullptr;
  NetRecvDma* nrdma = nullptr;
  CardTrace* trace = nullptr;
  // The LANai's work: busy while the firmware is in a state and not
  // busy-waiting (LANAI_REG_TRACE_STATE, LANAI_REG_TRACE_WAIT).
  BusyMeter* lanai_work = nullptr;
};

class CardRegisters final : public iss::MmioBus {
public:
  CardRegisters(kernel::Kernel& kernel, machine::SystemRegisters& system, std::uint32_t node);
  ~CardRegisters() override;
  CardRegisters(const CardRegisters&) = delete;
  CardRegisters& operator=(const CardRegisters&) = delete;

  // The devices exist only after the CPU, which needs this bus first.
  void attach(const CardDevices& devices);
  void set_on_host_interrupt(std::function<void(std::uint32_t)> fn) {
    on_interrupt_ = std::move(fn);
  }

  iss::MmioStatus read(std::uint32_t address, std::uint64_t cycle, std::uint32_t& value) override;
  iss::MmioStatus write(std::uint32_t address, std::uint64_t cycle, std::uint32_t value) override;
  // Registers whose reads change nothing and whose value changes only in
  // kernel events or register writes: all but the two pops (doorbell, host
  // DMA completion), the countdown timer and the cycle counter's low word.
  bool stable_read(std::uint32_t address) const override;
  bool clock_read(std::uint32_t address) const override;
  // Every block answers an unknown register before touching anything.
  bool unmapped_is_untouched() const override { return true; }
  // The event word read in place, and the staging registers of the DMA
  // engines and the trace tag written in place. None before attach(), which
  // comes once, before the core's first access: the core keeps the forms it
  // was given.
  iss::DirectRegister direct_register(std::uint32_t address) override;

  // The LANAI_REG_EVENT_STATUS word as it stands now: as the devices
  // published it (EventWord).
  std::uint32_t event_status() const;
  const CountdownTimer& timer() const { return *timer_; }
  // Timer runs and expiries and host interrupts raised.
  std::uint64_t activity() const;

private:
  // Virtual time and cycle of an access the core makes at `cycle`.
  kernel::SimTime access_time(std::uint64_t cycle) const;
  std::uint64_t effective_cycle(std::uint64_t cycle) const;
  iss::MmioStatus write_device(std::uint32_t address, std::uint64_t cycle, std::uint32_t value);
  // A write to one of the card's devices (MmioDevice).
  template <class Device>
  iss::MmioStatus write_to(Device& device, std::uint32_t address, std::uint64_t cycle,
                           std::uint32_t value);
  void raise_interrupt(kernel::SimTime when, std::uint32_t word);
  // The instrumentation port's registers (LANAI_REG_TRACE_*).
  iss::MmioStatus read_trace_port(std::uint32_t address, std::uint32_t& value) const;
  void write_trace_port(std::uint32_t address, std::uint64_t cycle, std::uint32_t value);
  // The NUL-terminated name at SRAM `address` (at most 64 characters), as
  // it stands in SRAM: valid until the next write to it.
  std::string_view state_name(std::uint32_t address) const;

  kernel::Kernel& kernel_;
  machine::SystemRegisters& system_;
  std::uint32_t node_;
  CardDevices devices_;
  std::unique_ptr<CountdownTimer> timer_;
  EventWord event_word_;
  std::function<void(std::uint32_t)> on_interrupt_;
  std::deque<kernel::EventId> interrupts_; // raised, not yet delivered
  std::uint64_t interrupts_raised_ = 0;
  std::uint32_t trace_state_ = 0; // last LANAI_REG_TRACE_STATE word
  std::uint32_t trace_wait_ = 0;  // last LANAI_REG_TRACE_WAIT word
  std::uint32_t trace_stamp_[2] = {0, 0};
};

} // namespace lanai::nic
