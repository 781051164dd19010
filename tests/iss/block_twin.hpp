// Runs one program on two cores, one executing predecoded blocks and one
// stepping every instruction through the reference path, through the same
// sequence of runs, and compares all either lets anyone observe: stop
// reason, counters, pc, registers, flags, fault, SRAM and every device
// access with the cycle it happened at.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "emulator/iss/cpu.hpp"
#include "lanai/register_map.h"

namespace lanai::test {

struct DeviceAccess {
  std::uint32_t address;
  std::uint64_t cycle;
  std::uint32_t value;
  bool write;
  friend bool operator==(const DeviceAccess&, const DeviceAccess&) = default;
};

// A register window whose registers act on the core the way devices do:
// the exit register halts it, others add wait states, end the run (as a
// device that scheduled an event does) or write SRAM (as a DMA engine does,
// code included). Everything at or above `unmapped` faults.
class TwinBus : public iss::MmioBus {
public:
  static constexpr std::uint32_t console = LANAI_MMIO_BASE + 0x00;
  static constexpr std::uint32_t exit = LANAI_MMIO_BASE + 0x04;
  static constexpr std::uint32_t cycle = LANAI_MMIO_BASE + 0x08; // reads the access cycle
  static constexpr std::uint32_t stall = LANAI_MMIO_BASE + 0x0C; // adds value % 8 cycles
  static constexpr std::uint32_t yield = LANAI_MMIO_BASE + 0x10; // ends the run
  static constexpr std::uint32_t poke_address = LANAI_MMIO_BASE + 0x14;
  static constexpr std::uint32_t poke_data = LANAI_MMIO_BASE + 0x18; // SRAM word <- value
  // A staging register (written in place by a core that runs blocks) and a
  // stable register read in place, whose value follows it. Neither is
  // logged: `staged` is compared instead.
  static constexpr std::uint32_t staging = LANAI_MMIO_BASE + 0x1C;
  static constexpr std::uint32_t direct = LANAI_MMIO_BASE + 0x20;
  static constexpr std::uint32_t unmapped = LANAI_MMIO_BASE + 0x40;

  iss::Cpu* cpu = nullptr;
  std::vector<DeviceAccess> log;
  std::uint32_t staged = 0;
  int bus_staging_writes = 0, bus_direct_reads = 0; // made through write() and read()

  static std::uint32_t direct_value(const void* bus) {
    return static_cast<const TwinBus*>(bus)->staged * 2654435761u + 1u;
  }

  iss::MmioStatus read(std::uint32_t address, std::uint64_t at, std::uint32_t& value) override {
    if (address >= unmapped)
      return iss::MmioStatus::unmapped;
    if (address == direct) {
      ++bus_direct_reads;
      value = direct_value(this);
      return iss::MmioStatus::ok;
    }
    value = address == cycle     ? static_cast<std::uint32_t>(at)
            : address == staging ? staged
                                 : address * 2654435761u;
    log.push_back({address, at, value, false});
    return iss::MmioStatus::ok;
  }
  iss::MmioStatus write(std::uint32_t address, std::uint64_t at, std::uint32_t value) override {
    if (address >= unmapped)
      return iss::MmioStatus::unmapped;
    if (address == staging) {
      ++bus_staging_writes;
      staged = value;
      return iss::MmioStatus::ok;
    }
    log.push_back({address, at, value, true});
    switch (address) {
    case exit:
      return iss::MmioStatus::halt;
    case stall:
      cpu->add_stall_cycles(value % 8);
      break;
    case yield:
      cpu->request_yield();
      break;
    case poke_address:
      poke_ = value;
      break;
    case poke_data:
      cpu->write_word((poke_ % cpu->sram_bytes()) & ~3u, value);
      break;
    default:
      break;
    }
    return iss::MmioStatus::ok;
  }
  bool stable_read(std::uint32_t address) const override { return address != cycle; }
  iss::DirectRegister direct_register(std::uint32_t address) override {
    iss::DirectRegister d;
    if (address == direct) {
      d.read = &direct_value;
      d.owner = this;
    } else if (address == staging) {
      d.word = &staged;
    }
    return d;
  }
  // Unmapped registers are refused before anything is logged or done.
  bool unmapped_is_untouched() const override { return true; }

private:
  std::uint32_t poke_ = 0;
};

class BlockTwin {
public:
  static constexpr std::uint32_t sram = 16 * 1024;

  BlockTwin(const std::vector<std::uint32_t>& words, iss::CycleCosts costs = {},
            const std::array<std::uint32_t, 32>* regs = nullptr, bool fast_forward = true)
      : blocks_(words, costs, regs, fast_forward, true),
        reference_(words, costs, regs, fast_forward, false) {}

  // Runs both to the same limits; false once either has stopped.
  bool run(std::uint64_t cycle_limit, std::uint64_t instruction_limit = ~std::uint64_t{0}) {
    const auto a = blocks_.cpu->run(cycle_limit, instruction_limit);
    const auto b = reference_.cpu->run(cycle_limit, instruction_limit);
    return a == iss::StopReason::cycle_limit && b == iss::StopReason::cycle_limit;
  }
  void write_word(std::uint32_t address, std::uint32_t value) {
    blocks_.cpu->write_word(address, value);
    reference_.cpu->write_word(address, value);
  }
  iss::Cpu& blocks() { return *blocks_.cpu; }
  iss::Cpu& reference() { return *reference_.cpu; }
  const TwinBus& blocks_bus() const { return blocks_.bus; }
  const TwinBus& reference_bus() const { return reference_.bus; }

  // Empty if the two agree, else the first difference found.
  std::string difference() const {
    const iss::Cpu& a = *blocks_.cpu;
    const iss::Cpu& b = *reference_.cpu;
    std::ostringstream out;
    if (a.state() != b.state())
      out << "stop " << int(a.state()) << " vs " << int(b.state()) << "; ";
    if (a.cycles() != b.cycles())
      out << "cycles " << a.cycles() << " vs " << b.cycles() << "; ";
    if (a.instructions() != b.instructions())
      out << "instructions " << a.instructions() << " vs " << b.instructions() << "; ";
    if (a.pc() != b.pc())
      out << "pc " << a.pc() << " vs " << b.pc() << "; ";
    if (a.skipped_cycles() != b.skipped_cycles())
      out << "skipped " << a.skipped_cycles() << " vs " << b.skipped_cycles() << "; ";
    for (unsigned r = 0; r < 32; ++r)
      if (a.reg(r) != b.reg(r))
        out << "r" << r << " " << a.reg(r) << " vs " << b.reg(r) << "; ";
    const auto fa = a.flags(), fb = b.flags();
    if (fa.c != fb.c || fa.v != fb.v || fa.n != fb.n || fa.z != fb.z)
      out << "flags; ";
    if (a.state() == iss::StopReason::fault) {
      const auto &x = a.fault(), &y = b.fault();
      if (x.kind != y.kind || x.pc != y.pc || x.address != y.address || x.word != y.word ||
          x.word_valid != y.word_valid || x.width != y.width || x.is_store != y.is_store)
        out << "fault; ";
    }
    if (blocks_.bus.log != reference_.bus.log)
      out << "device accesses; ";
    if (blocks_.bus.staged != reference_.bus.staged)
      out << "staging register; ";
    std::vector<std::uint8_t> ma(sram), mb(sram);
    a.read_sram(0, ma);
    b.read_sram(0, mb);
    if (ma != mb)
      out << "SRAM; ";
    return out.str();
  }

private:
  struct Side {
    TwinBus bus;
    std::unique_ptr<iss::Cpu> cpu;
    Side(const std::vector<std::uint32_t>& words, iss::CycleCosts costs,
         const std::array<std::uint32_t, 32>* regs, bool fast_forward, bool blocks)
        : cpu(std::make_unique<iss::Cpu>(sram, costs, &bus)) {
      bus.cpu = cpu.get();
      for (std::size_t i = 0; i < words.size(); ++i)
        cpu->write_word(static_cast<std::uint32_t>(4 * i), words[i]);
      cpu->reset(0);
      if (regs)
        for (unsigned r = 3; r < 32; ++r)
          cpu->set_reg(r, (*regs)[r]);
      cpu->set_fast_forward(fast_forward);
      cpu->set_blocks(blocks);
    }
  };
  Side blocks_, reference_;
};

} // namespace lanai::test
