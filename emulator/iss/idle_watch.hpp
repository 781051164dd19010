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
  // branches are not looked at.
  static constexpr std::uint64_t min_cycles = 64;
  // Stores an iteration may make and undo (a call's saved registers).
  static constexpr int max_stores = 8;

  struct Store {
    std::uint32_t address;
    std::uint32_t width;
    std::uint32_t before; // the bytes before the iteration's first store there
  };

  // Forgets everything, e.g. when a run begins: the state may have been
  // changed from outside (device events, a debugger) since the last one.
  void reset() {
    branch_ = none;
    skip_branch_ = none;
    clean_ = false;
  }
  // The loop repeated: the next give_up() skips the least.
  void succeeded() { backoff_ = 1; }

  std::uint32_t branch() const { return branch_; }
  bool clean() const { return clean_; }
  // The iteration read or wrote something that may not repeat.
  void taint() { clean_ = false; }

  // Starts watching `branch` from `state`, at the given counts.
  void begin(std::uint32_t branch, const IdleState& state, std::uint64_t cycles,
             std::uint64_t instructions) {
    branch_ = branch;
    skip_branch_ = none;
    state_ = state;
    cycles_ = cycles;
    instructions_ = instructions;
    stores_ = 0;
    clean_ = true;
  }
  // The watched branch did not repeat its state: the next backward branch
  // other than this one is watched instead, so an outer loop is found
  // behind an inner one.
  // It is watched again after a number of its arrivals that doubles with
  // each failure in a row (a busy loop costs the watch little).
  void give_up() {
    skip_branch_ = branch_;
    skips_left_ = backoff_;
    if (backoff_ < max_backoff)
      backoff_ *= 2;
    branch_ = none;
    clean_ = false;
  }
  // Whether to start watching the backward branch at `branch` now.
  bool wants(std::uint32_t branch) {
    if (branch_ != none)
      return false;
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
  const Store& store(int i) const { return stores_at_[i]; }

  const IdleState& state() const { return state_; }
  std::uint64_t cycles() const { return cycles_; }
  std::uint64_t instructions() const { return instructions_; }

private:
  std::uint32_t branch_ = none;
  static constexpr std::uint32_t max_backoff = 1024;
  std::uint32_t skip_branch_ = none;
  std::uint32_t skips_left_ = 0;
  std::uint32_t backoff_ = 1;
  bool clean_ = false;
  IdleState state_;
  std::uint64_t cycles_ = 0;
  std::uint64_t instructions_ = 0;
  std::array<Store, max_stores> stores_at_{};
  int stores_ = 0;
};

} // namespace lanai::iss
