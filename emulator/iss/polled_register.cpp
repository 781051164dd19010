// The analysis of what a polling lap does with the register it polls
// (polled_register.hpp).
#include "emulator/iss/polled_register.hpp"

#include <initializer_list>

#include "emulator/iss/instruction.hpp"

namespace lanai::iss {

namespace {

// A value of the lap: the same every lap, the polled word as read, or
// computed from the word through known masks (and from known values).
enum class Kind : std::uint8_t { known, word, masked };

// The kinds of the registers as two masks (bit r: register r), the flags'
// on their own.
class PolledLap {
public:
  PolledLap(const std::uint32_t* regs, std::uint32_t written, std::uint32_t word_registers)
      : regs_(regs), written_(written), word_(word_registers) {}

  bool failed() const { return failed_; }
  bool reads_memory() const { return reads_memory_; }
  std::uint32_t mask_registers() const { return mask_registers_; }
  bool used_values() const { return used_values_; }
  std::uint32_t relevant() const { return relevant_; }
  std::uint32_t word_registers() const { return word_; }

  // One instruction; `jump`: it is the lap's backward branch.
  void execute(const BlockOp& op, bool jump, std::uint32_t address, std::uint32_t sram_bytes) {
    switch (op.kind) {
    case OpKind::add_ri:
    case OpKind::or_ri:
    case OpKind::xor_ri:
    case OpKind::shl_ri:
    case OpKind::shr_ri:
    case OpKind::sar_ri:
    case OpKind::popc:
    case OpKind::leadz:
    case OpKind::trailz:
      write(op.rd, computed({kind(op.rs1)}));
      break;
    case OpKind::and_ri:
      write(op.rd, masked(op.rs1, op.imm));
      break;
    case OpKind::add_ri_f:
    case OpKind::shift_ri_f:
      flags_ = write(op.rd, computed({kind(op.rs1)}));
      break;
    case OpKind::logic_ri_f:
      flags_ = write(op.rd, op.alu == alu_and ? masked(op.rs1, op.imm) : computed({kind(op.rs1)}));
      break;
    case OpKind::addc_ri:
      write(op.rd, computed({kind(op.rs1), flags_}));
      break;
    case OpKind::addc_ri_f:
      flags_ = write(op.rd, computed({kind(op.rs1), flags_}));
      break;
    case OpKind::add_rr:
    case OpKind::sub_rr:
    case OpKind::or_rr:
    case OpKind::xor_rr:
      write(op.rd, computed({kind(op.rs1), kind(op.rs2)}));
      break;
    case OpKind::and_rr:
      if (kind(op.rs1) == Kind::word && invariant(op.rs2))
        write(op.rd, masked_by_register(op.rs1, op.rs2));
      else if (kind(op.rs2) == Kind::word && invariant(op.rs1))
        write(op.rd, masked_by_register(op.rs2, op.rs1));
      else
        write(op.rd, computed({kind(op.rs1), kind(op.rs2)}));
      break;
    case OpKind::add_rr_f:
    case OpKind::sub_rr_f:
      flags_ = write(op.rd, computed({kind(op.rs1), kind(op.rs2)}));
      break;
    case OpKind::alu_rr:
    case OpKind::shift_rr: {
      // Predicated, it may keep Rd (and set the flags from it).
      const Kind k = write(
          op.rd, computed({kind(op.rs1), kind(op.rs2), kind(op.rd_read), kind(op.rd), flags_}));
      if (op.bits & op_set_flags)
        flags_ = k;
      break;
    }
    case OpKind::select:
      write(op.rd, computed({kind(op.rs1), kind(op.rs2), flags_}));
      break;
    case OpKind::set_cond:
      write(op.rd, computed({flags_}));
      break;
    case OpKind::load_imm:
      write(op.rd, Kind::known);
      break;
    case OpKind::load_word:
    case OpKind::load_device: {
      // The address must be the same every lap: known from the registers.
      if (op.kind == OpKind::load_word && !invariant(op.rs1)) {
        failed_ = true;
        break;
      }
      std::uint32_t ea = op.imm;
      if (op.kind == OpKind::load_word && op.rs1 != 0) {
        ea += regs_[op.rs1];
        used_values_ = true;
      }
      if (ea == address) {
        write(op.rd, Kind::word);
      } else if (ea < sram_bytes && (ea & 3u) == 0) {
        write(op.rd, Kind::known); // memory the lap does not change
        reads_memory_ = true;
      } else {
        failed_ = true; // another device register
      }
      break;
    }
    case OpKind::branch:
      if (!jump)
        failed_ = true; // a branch in the delay slot
      (void)computed({flags_});
      break;
    default:
      failed_ = true;
      break;
    }
  }

private:
  Kind kind(unsigned r) const {
    if (r >= 32)
      return Kind::known; // the discarded register is never read
    const std::uint32_t bit = 1u << r;
    return (word_ & bit) ? Kind::word : (masked_ & bit) ? Kind::masked : Kind::known;
  }
  // A register no instruction of the lap writes: the value it starts with.
  bool invariant(unsigned r) const { return r < 32 && ((written_ >> r) & 1u) == 0; }
  Kind write(unsigned r, Kind k) {
    if (r == reg_pc) {
      failed_ = true;
    } else if (r < 32) {
      const std::uint32_t bit = 1u << r;
      word_ = k == Kind::word ? word_ | bit : word_ & ~bit;
      masked_ = k == Kind::masked ? masked_ | bit : masked_ & ~bit;
    }
    return k;
  }
  // The word itself among the operands: all its bits decide.
  Kind computed(std::initializer_list<Kind> operands) {
    Kind out = Kind::known;
    for (const Kind k : operands) {
      if (k == Kind::word)
        relevant_ = ~0u;
      if (k != Kind::known)
        out = Kind::masked;
    }
    return out;
  }
  // Rs & mask, the mask known: of the word, only the mask's bits decide.
  Kind masked(unsigned rs, std::uint32_t mask) {
    if (kind(rs) != Kind::word)
      return computed({kind(rs)});
    relevant_ |= mask;
    return Kind::masked;
  }
  // The same, the mask in a register the lap does not write.
  Kind masked_by_register(unsigned rs, unsigned mask_register) {
    if (kind(rs) == Kind::word)
      mask_registers_ |= 1u << mask_register;
    return masked(rs, std::uint32_t{0});
  }

  const std::uint32_t* regs_;
  std::uint32_t written_;
  std::uint32_t word_;       // registers holding the word as read
  std::uint32_t masked_ = 0; // registers computed from it
  Kind flags_ = Kind::known;
  std::uint32_t relevant_ = 0;
  std::uint32_t mask_registers_ = 0;
  bool used_values_ = false;
  bool reads_memory_ = false;
  bool failed_ = false;
};

// Registers the instructions write (an operation that writes none names
// the discarded register or writes nothing the mask can hold).
std::uint32_t written_registers(const BlockOp* ops, std::uint32_t count) {
  std::uint32_t written = 0;
  for (std::uint32_t i = 0; i < count; ++i)
    if (ops[i].kind != OpKind::branch && ops[i].rd < 32)
      written |= 1u << ops[i].rd;
  return written;
}

} // namespace

PolledRegister analyse_polled_register(const BlockOp* ops, std::uint32_t count,
                                       std::uint32_t first_pc, std::uint32_t address,
                                       std::uint32_t sram_bytes, const std::uint32_t* regs) {
  PolledRegister result;
  if (count < 2 || count > PolledRegister::max_positions)
    return result;
  const std::uint32_t branch = count - 2;
  if (ops[branch].kind != OpKind::branch || ops[branch].imm != first_pc)
    return result;
  const std::uint32_t written = written_registers(ops, count);

  // In the order a lap executes: the delay slot, then the block up to the
  // branch. A first pass finds the registers that hold the word at the
  // lap's end, which is also its start; the second starts from them.
  std::uint32_t at_start = 0;
  for (int pass = 0; pass < 2; ++pass) {
    PolledLap lap(regs, written, at_start);
    for (std::uint32_t step = 0; step < count && !lap.failed(); ++step) {
      const std::uint32_t position = lap_position(step, count);
      if (pass == 1)
        result.holding[position] = lap.word_registers();
      lap.execute(ops[position], position == branch, address, sram_bytes);
    }
    if (lap.failed() || (pass == 1 && lap.word_registers() != at_start))
      return PolledRegister{};
    at_start = lap.word_registers();
    result.relevant = lap.relevant();
    result.reads_memory = lap.reads_memory();
    result.mask_registers = lap.mask_registers();
    result.used_values = lap.used_values();
  }
  result.known = true;
  result.first_pc = first_pc;
  result.positions = count;
  return result;
}

} // namespace lanai::iss
