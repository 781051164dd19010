// The card's system register block: debug console, exit register, cycle
// counter and SRAM size. It is the only device a bare firmware program
// needs; the NIC devices add their own blocks to the register window.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "emulator/iss/mmio_bus.hpp"

namespace lanai::machine {

class SystemRegisters : public iss::MmioBus {
public:
  explicit SystemRegisters(std::uint32_t sram_bytes) : sram_bytes_(sram_bytes) {}

  // Each console byte goes to the sink as it is written (default: kept only).
  void set_console_sink(std::function<void(char)> sink) { sink_ = std::move(sink); }
  const std::string& console() const { return console_; }
  std::optional<std::int32_t> exit_code() const { return exit_code_; }

  iss::MmioStatus read(std::uint32_t address, std::uint64_t cycle, std::uint32_t& value) override;
  iss::MmioStatus write(std::uint32_t address, std::uint64_t cycle, std::uint32_t value) override;
  // Everything but the cycle counter's low word (its value moves, and the
  // read latches the high word). The high word is stable between two reads
  // of the low word only: a loop that reads both is skipped only within one
  // value of the high word (Cpu::skip_clock_laps).
  bool stable_read(std::uint32_t address) const override;
  // The cycle counter's low word.
  bool clock_read(std::uint32_t address) const override;
  bool unmapped_is_untouched() const override { return true; }
  // The cycle counter's low word, read directly.
  iss::DirectRegister direct_register(std::uint32_t address) override;
  // A read of the cycle counter's low word at `cycle` (it latches the high
  // word).
  std::uint32_t read_cycle_lo(std::uint64_t cycle) {
    latched_cycle_hi_ = static_cast<std::uint32_t>(cycle >> 32);
    return static_cast<std::uint32_t>(cycle);
  }

private:
  std::uint32_t sram_bytes_;
  std::string console_;
  std::function<void(char)> sink_;
  std::optional<std::int32_t> exit_code_;
  std::uint32_t latched_cycle_hi_ = 0;
};

} // namespace lanai::machine
