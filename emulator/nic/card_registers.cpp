// Register decoding for the card: which block an address belongs to, the
// access time of each access, and the system registers the NIC adds (event
// status, timer, host interrupt, node id).
#include "emulator/nic/card_registers.hpp"

#include <algorithm>
#include <cassert>

#include "lanai/register_map.h"
#include "emulator/nic/busy_meter.hpp"
#include "emulator/nic/card_trace.hpp"
#include "emulator/nic/countdown_timer.hpp"
#include "emulator/nic/doorbell_fifo.hpp"
#include "emulator/nic/host_dma.hpp"
#include "emulator/nic/mmio_device.hpp"
#include "emulator/nic/net_recv_dma.hpp"
#include "emulator/nic/net_send_dma.hpp"

namespace lanai::nic {

static_assert(MmioDevice<DoorbellFifo>);
static_assert(MmioDevice<HostDma>);
static_assert(MmioDevice<NetSendDma>);
static_assert(MmioDevice<NetRecvDma>);

namespace {

// Each block spans 0x100 bytes of the window; the index names it.
enum Block : std::uint32_t {
  system_block = 0,
  doorbell_block = 1,
  hdma_block = 2,
  nsdma_block = 3,
  nrdma_block = 4
};

std::uint32_t block_of(std::uint32_t address) { return (address - LANAI_MMIO_BASE) >> 8; }

// Writes that schedule work: the core must end its slice so the scheduler
// sees the new event before the core runs past its time. A timer written
// 0 is stopped: nothing is scheduled.
bool starts_operation(std::uint32_t address, std::uint32_t value) {
  switch (address) {
  case LANAI_REG_TIMER:
    return value != 0;
  case LANAI_REG_HOST_INTERRUPT:
  case LANAI_REG_HDMA_APPEND:
  case LANAI_REG_HDMA_INSERT:
  case LANAI_REG_NSDMA_START:
  case LANAI_REG_NRDMA_ARM:
    return true;
  default:
    return false;
  }
}

// The registers of the system block the card answers itself; the rest of
// the block is the core's (console, exit, cycle counter, SRAM size).
bool card_system_register(std::uint32_t address) {
  switch (address) {
  case LANAI_REG_EVENT_STATUS:
  case LANAI_REG_TIMER:
  case LANAI_REG_HOST_INTERRUPT:
  case LANAI_REG_NODE_ID:
    return true;
  default:
    return address >= LANAI_TRACE_PORT_FIRST && address <= LANAI_TRACE_PORT_LAST;
  }
}

} // namespace

CardRegisters::CardRegisters(kernel::Kernel& kernel, machine::SystemRegisters& system,
                             std::uint32_t node)
    : kernel_(kernel), system_(system), node_(node) {}

CardRegisters::~CardRegisters() {
  for (const auto id : interrupts_)
    kernel_.cancel(id);
}

void CardRegisters::attach(const CardDevices& devices) {
  devices_ = devices;
  timer_ = std::make_unique<CountdownTimer>(kernel_, *devices_.core);
  auto publish_to_word = [this](auto* device) {
    if (device != nullptr)
      device->set_event_word(&event_word_);
  };
  publish_to_word(timer_.get());
  publish_to_word(devices_.doorbells);
  publish_to_word(devices_.hdma);
  publish_to_word(devices_.nsdma);
  publish_to_word(devices_.nrdma);
}

std::uint64_t CardRegisters::effective_cycle(std::uint64_t cycle) const {
  // The core runs ahead of the kernel, never behind it; a register driven
  // by hand (tests) may name an older cycle.
  return std::max(cycle, devices_.core->cycle_at(kernel_.now()));
}

kernel::SimTime CardRegisters::access_time(std::uint64_t cycle) const {
  return std::max(kernel_.now(), devices_.core->time_at(effective_cycle(cycle)));
}

iss::MmioStatus CardRegisters::read(std::uint32_t address, std::uint64_t cycle,
                                    std::uint32_t& value) {
  if (address < LANAI_MMIO_BASE)
    return iss::MmioStatus::unmapped;
  switch (block_of(address)) {
  case system_block:
    switch (address) {
    case LANAI_REG_EVENT_STATUS:
      value = event_status();
      return iss::MmioStatus::ok;
    case LANAI_REG_TIMER:
      value = timer_->read(effective_cycle(cycle));
      return iss::MmioStatus::ok;
    case LANAI_REG_HOST_INTERRUPT:
      value = 0;
      return iss::MmioStatus::ok; // write-only
    case LANAI_REG_NODE_ID:
      value = node_;
      return iss::MmioStatus::ok;
    default:
      if (address >= LANAI_TRACE_PORT_FIRST && address <= LANAI_TRACE_PORT_LAST)
        return read_trace_port(address, value);
      return system_.read(address, cycle, value);
    }
  case doorbell_block:
    return devices_.doorbells->read(address, value);
  case hdma_block:
    return devices_.hdma->read(address, value);
  case nsdma_block:
    return devices_.nsdma->read(address, value);
  case nrdma_block:
    return devices_.nrdma->read(address, value);
  default:
    return iss::MmioStatus::unmapped;
  }
}

bool CardRegisters::stable_read(std::uint32_t address) const {
  if (address < LANAI_MMIO_BASE)
    return false;
  switch (block_of(address)) {
  case system_block:
    if (!card_system_register(address))
      return system_.stable_read(address);
    return address != LANAI_REG_TIMER;
  case doorbell_block:
    return address != LANAI_REG_DB_POP;
  case hdma_block:
    return address != LANAI_REG_HDMA_DONE_POP;
  case nsdma_block:
  case nrdma_block:
    return true;
  default:
    return false;
  }
}

namespace {

template <class Device>
std::uint32_t* staging_word(Device* device, std::uint32_t address) {
  return device != nullptr ? device->staging_word(address) : nullptr;
}

} // namespace

iss::DirectRegister CardRegisters::direct_register(std::uint32_t address) {
  iss::DirectRegister direct;
  if (address < LANAI_MMIO_BASE)
    return direct;
  switch (block_of(address)) {
  case system_block:
    if (clock_read(address)) {
      direct = system_.direct_register(address);
    } else if (address == LANAI_REG_EVENT_STATUS && devices_.doorbells != nullptr &&
               devices_.hdma != nullptr && devices_.nsdma != nullptr && devices_.nrdma != nullptr &&
               timer_ != nullptr) {
      direct.read = [](const void* owner) {
        return static_cast<const CardRegisters*>(owner)->event_status();
      };
      direct.owner = this;
    } else if (address == LANAI_REG_TRACE_TAG && devices_.trace != nullptr) {
      direct.word = devices_.trace->tag_word();
    }
    break;
  case doorbell_block:
    direct.word = staging_word(devices_.doorbells, address);
    break;
  case hdma_block:
    direct.word = staging_word(devices_.hdma, address);
    break;
  case nsdma_block:
    direct.word = staging_word(devices_.nsdma, address);
    break;
  case nrdma_block:
    direct.word = staging_word(devices_.nrdma, address);
    break;
  default:
    break;
  }
  return direct;
}

bool CardRegisters::clock_read(std::uint32_t address) const {
  // The clock is the core's: a register of the system block the card does
  // not answer itself.
  return address >= LANAI_MMIO_BASE && block_of(address) == system_block &&
         !card_system_register(address) && system_.clock_read(address);
}

iss::MmioStatus CardRegisters::write(std::uint32_t address, std::uint64_t cycle,
                                     std::uint32_t value) {
  const iss::MmioStatus status = write_device(address, cycle, value);
  if (status == iss::MmioStatus::ok && starts_operation(address, value))
    devices_.cpu->request_yield();
  return status;
}

template <class Device>
iss::MmioStatus CardRegisters::write_to(Device& device, std::uint32_t address, std::uint64_t cycle,
                                        std::uint32_t value) {
  // Most writes only stage a register: no time to work out (the kernel's
  // time stands in, unused).
  return device.write(address,
                      Device::write_uses_time(address) ? access_time(cycle) : kernel_.now(), value);
}

iss::MmioStatus CardRegisters::write_device(std::uint32_t address, std::uint64_t cycle,
                                            std::uint32_t value) {
  if (address < LANAI_MMIO_BASE)
    return iss::MmioStatus::unmapped;
  switch (block_of(address)) {
  case system_block:
    switch (address) {
    case LANAI_REG_EVENT_STATUS:
    case LANAI_REG_NODE_ID:
      return iss::MmioStatus::ok; // read-only: writes ignored
    case LANAI_REG_TIMER:
      timer_->write(effective_cycle(cycle), value);
      return iss::MmioStatus::ok;
    case LANAI_REG_HOST_INTERRUPT:
      raise_interrupt(access_time(cycle), value);
      return iss::MmioStatus::ok;
    default:
      if (address >= LANAI_TRACE_PORT_FIRST && address <= LANAI_TRACE_PORT_LAST) {
        write_trace_port(address, cycle, value);
        return iss::MmioStatus::ok;
      }
      return system_.write(address, cycle, value);
    }
  case doorbell_block:
    return write_to(*devices_.doorbells, address, cycle, value);
  case hdma_block:
    return write_to(*devices_.hdma, address, cycle, value);
  case nsdma_block:
    return write_to(*devices_.nsdma, address, cycle, value);
  case nrdma_block:
    return write_to(*devices_.nrdma, address, cycle, value);
  default:
    return iss::MmioStatus::unmapped;
  }
}

iss::MmioStatus CardRegisters::read_trace_port(std::uint32_t address, std::uint32_t& value) const {
  switch (address) {
  case LANAI_REG_TRACE_TAG:
    value = devices_.trace->tag();
    break;
  case LANAI_REG_TRACE_STATE:
    value = trace_state_;
    break;
  case LANAI_REG_TRACE_WAIT:
    value = trace_wait_;
    break;
  case LANAI_REG_TRACE_STAMP_LO:
    value = trace_stamp_[0];
    break;
  case LANAI_REG_TRACE_STAMP_HI:
    value = trace_stamp_[1];
    break;
  default:
    return iss::MmioStatus::unmapped;
  }
  return iss::MmioStatus::ok;
}

void CardRegisters::write_trace_port(std::uint32_t address, std::uint64_t cycle,
                                     std::uint32_t value) {
  switch (address) {
  case LANAI_REG_TRACE_TAG:
    devices_.trace->set_tag(value);
    return;
  case LANAI_REG_TRACE_STAMP_LO:
  case LANAI_REG_TRACE_STAMP_HI: {
    const bool high = address == LANAI_REG_TRACE_STAMP_HI;
    trace_stamp_[high ? 1 : 0] = value;
    devices_.trace->set_stamp_word(high, value);
    return;
  }
  case LANAI_REG_TRACE_STATE:
  case LANAI_REG_TRACE_WAIT:
    break;
  default:
    return;
  }
  const bool state = address == LANAI_REG_TRACE_STATE;
  if (state) {
    trace_state_ = value;
    trace_wait_ = 0;
  } else {
    trace_wait_ = value != 0 ? 1u : 0u;
  }
  const bool traced = devices_.trace->on();
  if (!traced && !devices_.lanai_work)
    return;
  // Worked out once for the trace and the work meter.
  const kernel::SimTime when = access_time(cycle);
  if (traced) {
    if (state)
      devices_.trace->set_state(when, state_name(value));
    else
      devices_.trace->set_waiting(when, trace_wait_ != 0);
  }
  if (devices_.lanai_work) {
    if (trace_state_ != 0 && trace_wait_ == 0)
      devices_.lanai_work->begin(when);
    else
      devices_.lanai_work->end(when);
  }
}

std::string_view CardRegisters::state_name(std::uint32_t address) const {
  // At most 64 characters, up to the terminating zero or the end of SRAM.
  const std::uint32_t sram = devices_.cpu->sram_bytes();
  if (address == 0 || address >= sram)
    return {};
  const std::span<const std::uint8_t> bytes =
      devices_.cpu->sram_view(address, std::min<std::uint32_t>(64, sram - address));
  const auto end = std::find(bytes.begin(), bytes.end(), std::uint8_t{0});
  return {reinterpret_cast<const char*>(bytes.data()),
          static_cast<std::size_t>(end - bytes.begin())};
}

void CardRegisters::raise_interrupt(kernel::SimTime when, std::uint32_t word) {
  ++interrupts_raised_;
  // Delivered by an event, never inside the core's access: the host side
  // must see it at its virtual time, in the kernel's order (after every
  // core's instruction of that time). Accesses come in time order, so
  // interrupts are delivered in the order raised.
  interrupts_.push_back(kernel_.schedule_from_access(
      when, kernel::SimTime::zero(),
      [this, word] {
        interrupts_.pop_front();
        if (on_interrupt_)
          on_interrupt_(word);
      },
      "nic.host_interrupt"));
}

std::uint32_t CardRegisters::event_status() const {
  assert(event_word_.bits() ==
         (devices_.doorbells->event_bits() | devices_.hdma->event_bits() |
          devices_.nsdma->event_bits() | devices_.nrdma->event_bits() | timer_->event_bits()));
  return event_word_.bits();
}

std::uint64_t CardRegisters::activity() const { return timer_->activity() + interrupts_raised_; }

} // namespace lanai::nic
