// The core's side of the fast-forward of loops that wait on the cycle
// counter (clock_lap.hpp): at a taken backward branch whose lap read a
// clock register once and changed nothing else that stays, work out from
// the lap's block how many of the following laps decide the same way, and
// skip those that fit before the run's limits, leaving the registers and
// flags as the last of them leaves them.
#include "emulator/iss/clock_lap.hpp"

#include <algorithm>
#include <optional>

#include "emulator/iss/block_builder.hpp"
#include "emulator/iss/cpu.hpp"
#include "emulator/iss/cpu_arithmetic.hpp"
#include "lanai/register_map.h"

namespace lanai::iss {

namespace {

// The one flag-setting addition the lap's decision hangs on, a + b + carry_in,
// one of a and b affine.
struct FlagSum {
  LapValue a, b;
  std::uint32_t carry_in = 0;

  std::uint8_t flags_at(std::uint32_t v) const {
    std::uint8_t flags = 0;
    (void)add_setting_flags(a.at(v), b.at(v), carry_in, flags);
    return flags;
  }
};

// One lap run over lap values, from the state at the branch. It fails on
// anything it cannot follow exactly; then the lap is simply executed.
class LapRun {
public:
  LapRun(const std::uint32_t* regs, std::uint8_t flags) : flags_(flags) {
    for (unsigned r = 0; r <= reg_discard; ++r)
      regs_[r] = LapValue::known(regs[r]);
  }

  bool failed() const { return failed_; }
  void fail() { failed_ = true; }

  LapValue read(unsigned r) {
    if (!written_[r])
      live_in_[r] = true;
    return regs_[r];
  }
  void write(unsigned r, LapValue value) {
    if (r == reg_pc) { // a jump: not a loop of one block
      fail();
      return;
    }
    regs_[r] = value;
    written_[r] = true;
  }

  LapValue add(LapValue a, LapValue b, std::uint32_t carry_in) {
    const std::uint32_t constant = a.constant + b.constant + carry_in;
    if (a.is_known() || b.is_known())
      return {a.sign + b.sign, constant};
    if (a.sign + b.sign == 0) // v - v: known
      return LapValue::known(constant);
    fail(); // 2v: a value the analysis does not follow
    return {};
  }
  static LapValue invert(LapValue x) { return {-x.sign, ~x.constant}; } // ~x = -x - 1

  // A flag-setting a + b + carry_in.
  LapValue add_setting_flags_of(LapValue a, LapValue b, std::uint32_t carry_in) {
    flags_set_ = true;
    if (a.is_known() && b.is_known()) {
      flag_sum_.reset();
      return LapValue::known(add_setting_flags(a.constant, b.constant, carry_in, flags_));
    }
    if (!a.is_known() && !b.is_known()) {
      fail();
      return {};
    }
    flag_sum_ = FlagSum{a, b, carry_in};
    return add(a, b, carry_in);
  }
  // A known value only: the analysis follows v through additions alone.
  std::uint32_t known(LapValue x) {
    if (!x.is_known())
      fail();
    return x.constant;
  }
  void read_flags() {
    if (!flags_set_)
      flags_live_in_ = true;
  }

  // After the lap: every register it reads before writing it, and every
  // register it leaves known, holds what it held at the start, so each lap
  // starts from what the one before left and the laps differ only in v.
  bool repeats(const std::uint32_t* regs, std::uint8_t flags) const {
    if (failed_)
      return false;
    for (unsigned r = 0; r <= reg_discard; ++r) {
      if (r == reg_discard && !live_in_[r])
        continue; // what r0 and r1 are written with is thrown away
      if (live_in_[r] && !regs_[r].is_known())
        return false;
      if (regs_[r].is_known() && regs_[r].constant != regs[r])
        return false;
    }
    if (flag_sum_)
      return !flags_live_in_;
    return flags_ == flags;
  }

  const LapValue& value(unsigned r) const { return regs_[r]; }
  const std::optional<FlagSum>& flag_sum() const { return flag_sum_; }
  std::uint8_t known_flags() const { return flags_; }

private:
  LapValue regs_[reg_discard + 1];
  bool live_in_[reg_discard + 1] = {};
  bool written_[reg_discard + 1] = {};
  std::uint8_t flags_;
  bool flags_set_ = false;
  bool flags_live_in_ = false;
  std::optional<FlagSum> flag_sum_;
  bool failed_ = false;
};

} // namespace

Cpu::ClockSkip Cpu::skip_clock_laps(std::uint32_t branch_pc, std::uint64_t cycle_limit,
                                    std::uint64_t instruction_limit) {
  const IdleWatch::ClockRead clock = watch_.clock();
  const std::uint64_t lap_cycles = cycles_ - watch_.cycles();
  const std::uint64_t lap_instructions = instructions_ - watch_.instructions();
  // The clock must read the access cycle's low word, as the bus promised.
  if (bus_ == nullptr || lap_cycles == 0 || lap_cycles >= 0x80000000u ||
      clock.value != static_cast<std::uint32_t>(clock.cycle))
    return ClockSkip::unsupported;

  // The lap: the branch's delay slot, then the block at the branch's
  // target up to the branch. Built apart from the block cache: a block may
  // be executing.
  const std::optional<std::uint32_t> entry = one_block_lap(branch_pc, lap_instructions);
  if (!entry)
    return ClockSkip::unsupported;
  const std::uint32_t target = *entry;
  clock_lap_ops_.clear();
  const Block block = build_block(target, sram_.get(), sram_bytes_, costs_, clock_lap_ops_);
  const std::uint32_t index = (branch_pc - target) / 4;
  if (block.count != lap_instructions)
    return ClockSkip::unsupported;
  const BlockOp& branch = clock_lap_ops_[index];
  if (branch.kind != OpKind::branch || branch.imm != target)
    return ClockSkip::unsupported;

  LapRun lap(regs_, flags_);
  bool clock_seen = false;
  // In the order the lap executes them: the delay slot, then the block's
  // first instructions up to the branch.
  for (std::uint32_t i = 0; i <= index + 1 && !lap.failed(); ++i) {
    const std::uint32_t at = lap_position(i, index + 2);
    const BlockOp& op = clock_lap_ops_[at];
    switch (op.kind) {
    case OpKind::add_ri:
      lap.write(op.rd, lap.add(lap.read(op.rs1), LapValue::known(op.imm), 0));
      break;
    case OpKind::add_rr:
      lap.write(op.rd, lap.add(lap.read(op.rs1), lap.read(op.rs2), 0));
      break;
    case OpKind::sub_rr:
      lap.write(op.rd, lap.add(lap.read(op.rs1), LapRun::invert(lap.read(op.rs2)), 1));
      break;
    case OpKind::add_ri_f:
      lap.write(op.rd, lap.add_setting_flags_of(lap.read(op.rs1), LapValue::known(op.imm), op.alu));
      break;
    case OpKind::add_rr_f:
      lap.write(op.rd, lap.add_setting_flags_of(lap.read(op.rs1), lap.read(op.rs2), 0));
      break;
    case OpKind::sub_rr_f:
      lap.write(op.rd,
                lap.add_setting_flags_of(lap.read(op.rs1), LapRun::invert(lap.read(op.rs2)), 1));
      break;
    case OpKind::and_ri:
      lap.write(op.rd, LapValue::known(lap.known(lap.read(op.rs1)) & op.imm));
      break;
    case OpKind::or_ri:
      lap.write(op.rd, LapValue::known(lap.known(lap.read(op.rs1)) | op.imm));
      break;
    case OpKind::xor_ri:
      lap.write(op.rd, LapValue::known(lap.known(lap.read(op.rs1)) ^ op.imm));
      break;
    case OpKind::load_imm:
      lap.write(op.rd, LapValue::known(op.imm));
      break;
    case OpKind::load_word:
    case OpKind::load_device: { // Rs1 is r0 in the latter
      const std::uint32_t ea = lap.known(lap.read(op.rs1)) + op.imm;
      if (lap.failed() || (ea & 3u)) {
        lap.fail();
      } else if (ea < sram_bytes_) {
        // The lap stores nothing (a store rules it out), so memory stays.
        lap.write(op.rd, LapValue::known(read_word(ea)));
      } else if (ea == clock.address && !clock_seen) {
        clock_seen = true;
        lap.write(op.rd, LapValue::clock());
      } else if (ea >= LANAI_MMIO_BASE && registers_.stable(ea)) {
        std::uint32_t value = 0;
        if (bus_->read(ea, cycles_, value) != MmioStatus::ok)
          lap.fail();
        lap.write(op.rd, LapValue::known(value));
      } else {
        lap.fail();
      }
      break;
    }
    case OpKind::branch:
      if (at != index) // the delay slot: a jump out of the loop
        lap.fail();
      lap.read_flags();
      break;
    default:
      lap.fail();
      break;
    }
  }
  if (!clock_seen || !lap.repeats(regs_, flags_))
    return ClockSkip::unsupported;

  // The laps from here on: lap j reads the clock at clock.cycle + j * lap.
  const auto step = static_cast<std::uint32_t>(lap_cycles);
  const auto v1 = static_cast<std::uint32_t>(clock.cycle + lap_cycles);
  std::uint64_t same = ~std::uint64_t{0};
  std::uint8_t flags1 = lap.known_flags();
  if (const auto& sum = lap.flag_sum()) {
    const LapValue& moving = sum->a.is_known() ? sum->b : sum->a;
    const LapValue& other = sum->a.is_known() ? sum->a : sum->b;
    same = laps_with_same_flags(moving.at(v1), moving.sign, step, other.constant, sum->carry_in);
    flags1 = sum->flags_at(v1);
  }
  if (!((cond_table_[flags1] >> branch.cond) & 1u))
    return ClockSkip::not_now; // the next lap leaves the loop

  // Whole laps that fit before the limits, and that take the branch as the
  // next one does.
  std::uint64_t laps =
      std::min(laps_that_fit(lap_cycles, lap_instructions, cycle_limit, instruction_limit), same);
  // Nor past a change of the counter's high word: a lap that reads the
  // latched high word (cycle_now() reads both) reads what its own or the
  // last lap's low-word read latched, the same value only within one
  // 2^32-cycle epoch.
  laps = std::min<std::uint64_t>(laps, ((clock.cycle | 0xFFFFFFFFu) - clock.cycle) / lap_cycles);
  if (laps == 0)
    return ClockSkip::not_now;

  // The state after the last skipped lap: its clock read (which the bus
  // may latch), its affine registers and its flags.
  const std::uint64_t last_read = clock.cycle + laps * lap_cycles;
  std::uint32_t latched = 0;
  (void)bus_->read(clock.address, last_read, latched);
  const auto v = static_cast<std::uint32_t>(last_read);
  for (unsigned r = 0; r <= reg_discard; ++r)
    if (!lap.value(r).is_known())
      regs_[r] = lap.value(r).at(v);
  if (const auto& sum = lap.flag_sum())
    flags_ = sum->flags_at(v);
  add_laps(laps, lap_cycles, lap_instructions);
  return ClockSkip::skipped;
}

} // namespace lanai::iss
