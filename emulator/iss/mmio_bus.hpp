// The LANai's view of its device registers: a full-word, split-phase-free
// register interface. Devices decide what each register does; the CPU only
// charges the access time and turns an unknown register into a fault.
#pragma once

#include <cstdint>

namespace lanai::iss {

enum class MmioStatus : std::uint8_t {
  ok,       // access done
  unmapped, // no register at this address: the CPU faults
  halt,     // access done and the processor stops (e.g. the exit register)
};

// A register the core may access without going through MmioBus::read or
// write (see MmioBus::direct_register). Any part may be missing.
struct DirectRegister {
  // A stable register (MmioBus::stable_read) whose read is this function
  // of `owner`: what read() gives at any cycle, with status ok.
  std::uint32_t (*read)(const void* owner) = nullptr;
  const void* owner = nullptr;
  // A staging register: a write stores its value in this word of the
  // device and does nothing else (no time, no work started, never refused).
  std::uint32_t* word = nullptr;
  // A clock (MmioBus::clock_read): what read() does and gives at `cycle`,
  // with status ok and no time of its own.
  std::uint32_t (*read_clock)(void* owner, std::uint64_t cycle) = nullptr;
  void* clock_owner = nullptr;
};

class MmioBus {
public:
  virtual ~MmioBus() = default;
  // `cycle` is the processor's cycle count at the access, for time-aware devices.
  virtual MmioStatus read(std::uint32_t address, std::uint64_t cycle, std::uint32_t& value) = 0;
  virtual MmioStatus write(std::uint32_t address, std::uint64_t cycle, std::uint32_t value) = 0;
  // True if a read of `address` has no side effect and gives the same value
  // until the next kernel event, register write or read of a register that
  // is not stable (CYCLE_HI keeps the high word latched by the last CYCLE_LO
  // read), whatever the cycle: a polling loop that reads only such
  // registers may be fast-forwarded.
  // False (the safe answer) unless a bus knows better. This answer, and
  // clock_read's, depend on the address alone and never change: a core asks
  // once per register (RegisterKinds).
  virtual bool stable_read(std::uint32_t /*address*/) const { return false; }
  // True if `address` is a clock: a read gives the low 32 bits of the
  // access cycle, and its only side effect is one that the same read at a
  // later cycle overwrites (CYCLE_LO latches the high word). A loop that
  // waits on such a register may be fast-forwarded to the lap whose read
  // lets it out. False (the safe answer) unless a bus knows better.
  virtual bool clock_read(std::uint32_t /*address*/) const { return false; }
  // True if an access this bus answers `unmapped` did nothing at all: the
  // block executor may then make any register access in place, and leave one
  // that turns out unmapped to the reference path, which makes it again and
  // faults. False (the safe answer) unless a bus knows better. A core asks
  // once, when it is built on the bus.
  virtual bool unmapped_is_untouched() const { return false; }
  // The direct forms of `address`, if the bus has them: what a core may do
  // instead of calling read() or write(), with exactly the same effect
  // (charging the access time stays the core's). Like stable_read, the
  // answer depends on the address alone, and the function, owner and word
  // stay valid as long as the bus: a core asks once per register
  // (RegisterKinds). None (the safe answer) unless a bus knows better.
  virtual DirectRegister direct_register(std::uint32_t /*address*/) { return {}; }
};

} // namespace lanai::iss
