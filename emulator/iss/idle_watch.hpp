// Exact fast-forward of idle polling loops. The watch follows one backward
// branch: it records the processor's state each time the branch is taken,
// and notes what the iteration in between did. An iteration that changed no
// memory (stores that were undone count as none), wrote no device register
// and read only registers whose value cannot change before the next kernel
// event, and that ends in the very state it began in, will repeat exactly
// until the next event: the core may add whole iterations' cycles and
// instruction counts without executing them. Nothing else about the
// processor changes, so results are bit-identical either way.
#pragma once

#include <array>
#include <cstdint>

#include "emulator/iss/polled_register.hpp"

namespace lanai::iss {

struct IdleState {
  std::array<std::uint32_t, 32> regs{};
  std::uint32_t pc = 0, npc = 0, nnpc = 0, loaded_reg = 0;
  std::uint8_t flags = 0;

  friend bool operator==(const IdleState&, const IdleState&) = default;
};

class IdleWatch {
public:
  static constexpr std::uint32_t none = 0xFFFFFFFFu;
  // A run with fewer cycles left has no room for the laps a skip needs (a
  // core in lockstep with others runs about one instruction per run): its
  // branches are not looked at, unless the run carries on the watch of the
  // run before (Cpu::run_on), when laps are found across runs.
  static constexpr std::uint64_t min_cycles = 64;
  // Stores an iteration may make and undo (a call's saved registers).
  static constexpr int max_stores = 8;
  // Times a run may leave a watched branch for another one.
  static constexpr int max_switches = 4;
  // Register reads an iteration may make and still be resumed in a later
  // run (see LapRecord).
  static constexpr int max_reads = 8;

  struct Store {
    std::uint32_t address;
    std::uint32_t width;
    std::uint32_t before; // the bytes before the iteration's first store there
  };
  struct Read {
    std::uint32_t address;
    std::uint32_t value;
  };
  // A read of a clock register (MmioBus::clock_read): its value changes
  // every lap, so a lap that makes one is skipped only by the clock-lap
  // analysis (clock_lap.hpp), and only if it makes one such read.
  struct ClockRead {
    std::uint32_t address = none;
    std::uint64_t cycle = 0; // the access cycle
    std::uint32_t value = 0;
  };

  // Forgets everything, e.g. when a run begins: the state may have been
  // changed from outside (device events, a debugger) since the last one.
  void reset() {
    branch_ = none;
    skip_branch_ = none;
    failed_branch_ = none;
    switches_left_ = max_switches;
    clean_ = false;
  }
  // The loop repeated: the next give_up() skips the least.
  void succeeded() { backoff_ = 1; }

  std::uint32_t branch() const { return branch_; }
  bool clean() const { return clean_; }
  // The iteration read or wrote something that may not repeat.
  void taint() { clean_ = false; }

  // Starts watching `branch` at the given counts, from the state the
  // caller writes into the reference returned (or, if it writes nothing,
  // from the state the last watch began in: the state a lap that repeats
  // ends in).
  IdleState& begin(std::uint32_t branch, std::uint64_t cycles, std::uint64_t instructions) {
    branch_ = branch;
    skip_branch_ = none;
    cycles_ = cycles;
    instructions_ = instructions;
    stores_ = 0;
    reads_ = 0;
    clock_ = ClockRead{};
    clean_ = true;
    rewatched_ = false;
    others_ = 0;
    return state_;
  }
  // The lap was clean but did not end in the state it began in: the first
  // lap of a polling loop entered from other code (its scratch registers
  // still hold that code's values) is watched again from here once,
  // before the branch is given up. Only a lap that polled a device
  // register is: a computing loop's state drifts every lap.
  bool may_rewatch() const { return !rewatched_; }
  IdleState& rewatch(std::uint32_t branch, std::uint64_t cycles, std::uint64_t instructions) {
    IdleState& state = begin(branch, cycles, instructions);
    rewatched_ = true; // after begin(), which clears it
    return state;
  }
  // The watched branch did not repeat its state: the next backward branch
  // other than this one is watched instead, so an outer loop is found
  // behind an inner one.
  // It is watched again after a number of its arrivals that doubles with
  // each failure in a row (a busy loop costs the watch little).
  void give_up() {
    skip_branch_ = branch_;
    failed_branch_ = branch_;
    skips_left_ = backoff_;
    if (backoff_ < max_backoff)
      backoff_ *= 2;
    branch_ = none;
    clean_ = false;
  }
  // Whether to start watching the backward branch at `branch` now.
  bool wants(std::uint32_t branch) {
    // Another backward branch while one is watched: the core may have left
    // the watched loop for good (a path taken once, then a polling loop
    // elsewhere), so the new one is watched instead, unless it already
    // failed in this run (an inner loop, whose outer loop is then watched
    // in peace) or the run has switched often enough (busy code). A branch
    // reached twice since the watched one was last reached closes a loop
    // the watched branch is not in: it is watched instead however often the
    // run switched, or a watch kept across runs (Cpu::run_on) would stay on
    // a branch left behind while the core circles a loop that repeats.
    if (branch_ != none) {
      if (branch == failed_branch_)
        return false;
      if (came_round(branch))
        return true;
      if (switches_left_ == 0)
        return false;
      --switches_left_;
      return true;
    }
    if (branch != skip_branch_)
      return true;
    if (skips_left_ > 0) {
      --skips_left_;
      return false;
    }
    return true;
  }

  // Records a store about to change `width` bytes at `address`, holding
  // `before`; false once more stores were made than can be checked.
  bool note_store(std::uint32_t address, std::uint32_t width, std::uint32_t before) {
    for (int i = 0; i < stores_; ++i)
      if (stores_at_[i].address == address && stores_at_[i].width == width)
        return true;
    if (stores_ == max_stores) {
      clean_ = false;
      return false;
    }
    stores_at_[stores_++] = Store{address, width, before};
    return true;
  }
  int stores() const { return stores_; }

  // Records the value a stable register read gave; more reads than can be
  // kept leave the lap skippable in this run but not resumable in a later one.
  void note_read(std::uint32_t address, std::uint32_t value) {
    if (!reads_kept())
      return;
    for (int i = 0; i < reads_; ++i)
      if (reads_at_[i].address == address) {
        if (reads_at_[i].value != value)
          reads_ = max_reads + 1;
        return;
      }
    if (reads_ >= max_reads) {
      reads_ = max_reads + 1;
      return;
    }
    reads_at_[reads_++] = Read{address, value};
  }
  // Records the lap's read of a clock register; a second one taints it.
  void note_clock(std::uint32_t address, std::uint64_t cycle, std::uint32_t value) {
    if (!clean_)
      return;
    if (clock_.address != none) {
      clean_ = false;
      return;
    }
    clock_ = ClockRead{address, cycle, value};
  }
  bool read_clock() const { return clock_.address != none; }
  const ClockRead& clock() const { return clock_; }

  bool reads_kept() const { return reads_ <= max_reads; }
  int reads() const { return reads_; }
  const Read& read(int i) const { return reads_at_[i]; }
  const Store& store(int i) const { return stores_at_[i]; }

  const IdleState& state() const { return state_; }
  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t instructions() const { return instructions_; }

private:
  // Notes `branch`, reached while another is watched; true if it was
  // reached before since the watched branch last was.
  bool came_round(std::uint32_t branch) {
    for (int i = 0; i < others_; ++i)
      if (others_at_[i] == branch)
        return true;
    others_at_[others_ < max_others ? others_++ : max_others - 1] = branch;
    return false;
  }

  std::uint32_t branch_ = none;
  static constexpr std::uint32_t max_backoff = 1024;
  std::uint32_t skip_branch_ = none;
  std::uint32_t failed_branch_ = none; // the last branch given up in this run
  int switches_left_ = max_switches;
  std::uint32_t skips_left_ = 0;
  std::uint32_t backoff_ = 1;
  bool clean_ = false;
  bool rewatched_ = false;
  IdleState state_;
  std::uint64_t cycles_ = 0;
  std::uint64_t instructions_ = 0;
  std::array<Store, max_stores> stores_at_{};
  int stores_ = 0;
  std::array<Read, max_reads> reads_at_{};
  int reads_ = 0;
  // Other backward branches reached since the watched one last was (the
  // count is cleared wherever a branch begins to be watched).
  static constexpr int max_others = 4;
  std::array<std::uint32_t, max_others> others_at_{};
  int others_ = 0;
  ClockRead clock_;
};

// A lap found to repeat, kept when a run ends inside it: the next run may
// skip laps at once, wherever in the lap the core stands, provided nothing
// the lap depends on changed in between. Nothing did if no one outside the
// core wrote its memory or registers and every device register the lap
// read still reads the same (the bus promises those reads have no side
// effects): the lap then repeats from any point of it, as it did before.
// A lap that reads one register and decides on some of its bits only
// (polled_register.hpp) also repeats if only the other bits changed.
struct LapRecord {
  bool valid = false;
  std::uint64_t cycles = 0;               // one lap's
  std::uint64_t instructions = 0;         // one lap's
  std::uint64_t outside_writes = 0;       // the core's count of them when recorded
  std::uint64_t outside_state_writes = 0; // and of those that reached registers or code
  int reads = 0;
  std::array<IdleWatch::Read, IdleWatch::max_reads> read{};
  PolledRegister polled;        // what the lap does with its one read, if known
  std::uint32_t polled_now = 0; // that register's value at the last check
  // What the lap's reads gave, and the count of outside writes, when it was
  // recorded or last found to hold.
  std::array<std::uint32_t, IdleWatch::max_reads> seen{};
  std::uint64_t seen_outside_writes = 0;
};

} // namespace lanai::iss
