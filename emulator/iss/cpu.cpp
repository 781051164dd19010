// The LANai core's state and its host-side interface: construction (the
// condition table, the costs), reset, registers and flags, and SRAM access
// from outside, which drops what was predecoded from the words it writes.
#include "emulator/iss/cpu.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "emulator/iss/cpu_arithmetic.hpp"

#include "lanai/register_map.h"

namespace lanai::iss {

namespace {

std::atomic<bool> fast_forward_default{true};
std::atomic<bool> blocks_default{true};

bool evaluate(unsigned cond, bool c, bool v, bool n, bool z) {
  switch (cond) {
  case 0:
    return true;
  case 1:
    return false;
  case 2:
    return c && !z;
  case 3:
    return !c || z;
  case 4:
    return !c;
  case 5:
    return c;
  case 6:
    return !z;
  case 7:
    return z;
  case 8:
    return !v;
  case 9:
    return v;
  case 10:
    return !n;
  case 11:
    return n;
  case 12:
    return n == v;
  case 13:
    return n != v;
  case 14:
    return n == v && !z;
  default:
    return z || n != v;
  }
}

// Checked before anything is allocated for it.
std::uint32_t valid_sram_bytes(std::uint32_t sram_bytes) {
  if (sram_bytes == 0 || sram_bytes % 4 != 0 || sram_bytes > LANAI_MMIO_BASE)
    throw std::invalid_argument(
        "SRAM size must be a non-zero multiple of 4 below the register window");
  return sram_bytes;
}

} // namespace

void set_default_fast_forward(bool on) { fast_forward_default = on; }
bool default_fast_forward() { return fast_forward_default; }
void set_default_blocks(bool on) { blocks_default = on; }
bool default_blocks() { return blocks_default; }

Cpu::Cpu(std::uint32_t sram_bytes, CycleCosts costs, MmioBus* bus)
    : sram_bytes_(valid_sram_bytes(sram_bytes)), sram_(zeroed_array<std::uint8_t>(sram_bytes)),
      decoded_(zeroed_array<Instruction>(sram_bytes / 4)),
      code_(zeroed_array<std::uint8_t>(sram_bytes / 4)),
      blocks_(sram_bytes_,
              BlockLibrary::default_sharing() ? &BlockLibrary::of(sram_bytes_, costs) : nullptr),
      costs_(costs), blocks_on_(default_blocks() && block_costs_supported(costs)), bus_(bus) {
  class_cost_[static_cast<int>(CostClass::alu)] = costs.alu_cycles;
  class_cost_[static_cast<int>(CostClass::load)] = costs.load_cycles;
  class_cost_[static_cast<int>(CostClass::store)] = costs.store_cycles;
  class_cost_[static_cast<int>(CostClass::branch)] = costs.branch_untaken_cycles;
  for (unsigned f = 0; f < 16; ++f) {
    std::uint16_t mask = 0;
    for (unsigned cond = 0; cond < 16; ++cond)
      if (evaluate(cond, f & flag_c, f & flag_v, f & flag_n, f & flag_z))
        mask |= 1u << cond;
    cond_table_[f] = mask;
  }
  reset(0);
}

void Cpu::reset(std::uint32_t entry) {
  std::fill(std::begin(regs_), std::end(regs_), 0u);
  regs_[1] = 0xFFFFFFFFu;
  flags_ = 0;
  pc_ = entry;
  npc_ = entry + 4;
  nnpc_ = entry + 8;
  loaded_reg_ = 0;
  cycles_ = 0;
  instructions_ = 0;
  state_ = StopReason::cycle_limit;
  fault_ = {};
  ++outside_writes_;
  ++outside_state_writes_;
}

void Cpu::set_profile(PcProfile* profile) {
  if (profile && (profile->cycles.size() != sram_bytes_ / 4 ||
                  profile->instructions.size() != sram_bytes_ / 4))
    throw std::invalid_argument("a PC profile must have one entry per SRAM word");
  profile_ = profile;
}

void Cpu::set_reg(unsigned r, std::uint32_t v) {
  ++outside_writes_;
  ++outside_state_writes_;
  r &= 31u;
  if (r == reg_pc) {
    pc_ = v;
    npc_ = v + 4;
    nnpc_ = v + 8;
  } else if (r > 1) {
    regs_[r] = v;
  }
}

Flags Cpu::flags() const {
  return {(flags_ & flag_c) != 0, (flags_ & flag_v) != 0, (flags_ & flag_n) != 0,
          (flags_ & flag_z) != 0};
}

void Cpu::write_sram(std::uint32_t addr, std::span<const std::uint8_t> data) {
  if (addr > sram_bytes_ || data.size() > sram_bytes_ - addr)
    throw std::out_of_range("SRAM write outside the SRAM");
  std::copy(data.begin(), data.end(), sram_.get() + addr);
  if (data.empty())
    return;
  ++outside_writes_;
  // A DMA into a buffer far from the code need not look at every word.
  const std::uint32_t first = std::max(addr / 4, code_first_);
  const std::uint32_t last =
      std::min((addr + static_cast<std::uint32_t>(data.size()) - 1) / 4, code_last_);
  bool code = false;
  for (std::uint32_t index = first; index <= last; ++index)
    if (code_[index]) {
      code_written(index);
      code = true;
    }
  if (code)
    ++outside_state_writes_;
}

void Cpu::code_written(std::uint32_t index) {
  if (code_[index] & code_in_block)
    blocks_.forget_covering(index);
  code_[index] = 0;
}

void Cpu::read_sram(std::uint32_t addr, std::span<std::uint8_t> out) const {
  if (out.size() > sram_bytes_)
    throw std::out_of_range("SRAM read outside the SRAM");
  std::copy_n(sram_view(addr, static_cast<std::uint32_t>(out.size())).data(), out.size(),
              out.begin());
}

std::span<const std::uint8_t> Cpu::sram_view(std::uint32_t addr, std::uint32_t length) const {
  if (addr > sram_bytes_ || length > sram_bytes_ - addr)
    throw std::out_of_range("SRAM read outside the SRAM");
  return {sram_.get() + addr, length};
}

std::uint32_t Cpu::read_word(std::uint32_t addr) const {
  std::uint8_t b[4];
  read_sram(addr, b);
  return std::uint32_t(b[0]) << 24 | std::uint32_t(b[1]) << 16 | std::uint32_t(b[2]) << 8 | b[3];
}

void Cpu::write_word(std::uint32_t addr, std::uint32_t v) {
  const std::uint8_t b[4] = {std::uint8_t(v >> 24), std::uint8_t(v >> 16), std::uint8_t(v >> 8),
                             std::uint8_t(v)};
  write_sram(addr, b);
}

void Cpu::raise(FaultKind kind, const Instruction& in, std::uint32_t pc, std::uint32_t address,
                std::uint32_t width, bool is_store) {
  fault_ = Fault{kind, pc, address, in.word, kind != FaultKind::fetch_error, width, is_store};
  state_ = StopReason::fault;
}

} // namespace lanai::iss
