// A core sleeping in a loop that waits on some bits of a status word stays
// asleep while other bits change, and every event still sees it exactly
// where it would be, the register that keeps the word as read included;
// a loop that uses the whole word, or memory that a device writes, wakes
// as before. Every case runs with and without fast-forward and compares
// what events saw, the end time and the registers.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "emulator/iss/cpu.hpp"
#include "emulator/kernel/random_stream.hpp"
#include "emulator/machine/clocked_core.hpp"
#include "emulator/machine/system_registers.hpp"
#include "lanai/register_map.h"
#include "tests/iss/lanai_encoding.hpp"

using namespace lanai::test;

namespace {

constexpr std::uint32_t polled_sram_bytes = 64 * 1024;
constexpr std::uint32_t status_address = 0x1F0000u | (LANAI_REG_EVENT_STATUS & 0xFFFFu);
constexpr std::uint32_t polled_buffer = 0x8000; // data a device writes

// The system registers plus a stable status word that events set.
class StatusBus final : public lanai::machine::SystemRegisters {
public:
  StatusBus() : SystemRegisters(polled_sram_bytes) {}
  std::uint32_t status = 0;

  lanai::iss::MmioStatus read(std::uint32_t address, std::uint64_t cycle,
                              std::uint32_t& value) override {
    if (address != LANAI_REG_EVENT_STATUS)
      return SystemRegisters::read(address, cycle, value);
    value = status;
    return lanai::iss::MmioStatus::ok;
  }
  bool stable_read(std::uint32_t address) const override {
    return address == LANAI_REG_EVENT_STATUS || SystemRegisters::stable_read(address);
  }
};

// r9 <- 1; while ((status & r9) == 0) {} (the word kept in r3); then
// exit with the word.
std::vector<std::uint32_t> wait_for_bit() {
  return {sli(r9, 1),                     // 0x00
          sls(false, r3, status_address), // 0x04
          rr(and_, r6, r3, r9),           // 0x08
          ri(sub, r0, r6, 0, true),       // 0x0c
          br(7, 0x04),                    // 0x10 beq
          nop,                            // 0x14
          exit_with(r3)};                 // 0x18
}

// The same wait on the whole word: while (status == 2 or 0)... as
// while ((status | 2) == 2) {}, an addition of the word first.
std::vector<std::uint32_t> wait_whole_word() {
  return {sls(false, r3, status_address), // 0x00
          ri(or_, r6, r3, 2),             // 0x04
          ri(sub, r0, r6, 2, true),       // 0x08
          br(7, 0x00),                    // 0x0c beq
          nop,                            // 0x10
          exit_with(r3)};                 // 0x14
}

struct Sample {
  std::uint64_t cycles;
  std::array<std::uint32_t, 32> regs;
  friend bool operator==(const Sample&, const Sample&) = default;
};

struct PollRun {
  std::vector<Sample> samples; // what each sampling event saw
  std::int64_t stopped_ps = -1;
  std::array<std::uint32_t, 32> regs{};
  std::uint64_t cycles = 0, slices = 0, skipped = 0;
};

// A core with `words` loaded from address 0, on a kernel of its own.
struct PollingCore {
  StatusBus bus;
  lanai::iss::Cpu cpu{polled_sram_bytes, {}, &bus};
  lanai::kernel::Kernel kernel;
  lanai::machine::ClockedCore core{kernel, cpu, lanai::kernel::Frequency::megahertz(66.0)};
  PollRun run;

  PollingCore(const std::vector<std::uint32_t>& words, bool fast_forward) {
    for (std::size_t i = 0; i < words.size(); ++i)
      cpu.write_word(static_cast<std::uint32_t>(4 * i), words[i]);
    cpu.reset(0);
    cpu.set_fast_forward(fast_forward);
    core.start(1'000'000'000,
               [this](lanai::iss::StopReason) { run.stopped_ps = kernel.now().ps(); });
  }
  // An event at `at` samples the core's cycles and registers.
  void sample_at(lanai::kernel::SimTime at) {
    kernel.schedule_at(at, [this] { run.samples.push_back(sampled()); });
  }
  // Runs every event; what the run left.
  PollRun finish() {
    kernel.run();
    run.regs = sampled().regs;
    run.cycles = cpu.cycles();
    run.slices = core.slices();
    run.skipped = cpu.skipped_cycles();
    return run;
  }

private:
  Sample sampled() const {
    Sample s{cpu.cycles(), {}};
    for (unsigned r = 0; r < 32; ++r)
      s.regs[r] = cpu.reg(r);
    return s;
  }
};

// What changes every period: bit 1 of the status word, a word of data, or
// a word of the loop's code (rewritten with the same instruction).
enum class Change { status_bit, data, code };

// Runs `words` while, every 1.3 us, an event makes the change and another
// samples the core a little later; bit 0 is set at 300 us.
PollRun run_polling(const std::vector<std::uint32_t>& words, bool fast_forward,
                    Change change = Change::status_bit) {
  constexpr int period_ns = 1300;
  PollingCore p(words, fast_forward);
  for (int i = 1; i * period_ns < 300'000; ++i) {
    const auto at = lanai::kernel::nanoseconds(i * period_ns);
    if (change == Change::data)
      p.kernel.schedule_at(
          at, [&p, i] { p.cpu.write_word(polled_buffer, static_cast<std::uint32_t>(i)); });
    else if (change == Change::code)
      p.kernel.schedule_at(at, [&p, &words] { p.cpu.write_word(0x08, words[2]); });
    else
      p.kernel.schedule_at(at, [&p] { p.bus.status ^= 2u; });
    // Sampled 7 + i % 97 ns on: at every point of the lap in turn.
    p.sample_at(at + lanai::kernel::nanoseconds(7 + i % 97));
  }
  p.kernel.schedule_at(lanai::kernel::microseconds(300), [&p] { p.bus.status |= 1u; });
  return p.finish();
}

// The two runs ended alike, and every sample saw the same.
void check_identical(const PollRun& fast, const PollRun& plain) {
  REQUIRE(plain.stopped_ps > 0);
  CHECK(fast.stopped_ps == plain.stopped_ps);
  CHECK(fast.cycles == plain.cycles);
  CHECK(fast.regs == plain.regs);
  REQUIRE(fast.samples.size() == plain.samples.size());
  for (std::size_t i = 0; i < plain.samples.size(); ++i) {
    INFO("sample " << i);
    CHECK(fast.samples[i] == plain.samples[i]);
  }
}

// run_polling's runs: identical, the wait over at 300 us, mostly skipped.
void check_same(const PollRun& fast, const PollRun& plain) {
  check_identical(fast, plain);
  CHECK(plain.stopped_ps > lanai::kernel::microseconds(300).ps());
  CHECK(plain.skipped == 0);
  CHECK(fast.skipped > plain.cycles / 2);
}

// A random polling loop on the status word: the word loaded into rA,
// masked (by a register, an immediate, either operand order, or after an
// addition that makes every bit decide) into rB, which the branch tests;
// a filler that keeps or drifts a register, and a delay slot that may
// copy the word or its masked bits elsewhere. Exits with the word.
std::vector<std::uint32_t> random_poll(lanai::kernel::RandomStream& rng, std::uint32_t mask) {
  const std::uint32_t a = rng.bernoulli(0.5) ? r3 : r7;
  const std::uint32_t b = rng.bernoulli(0.3) ? a : r6;
  std::vector<std::uint32_t> words = {sli(r9, mask), nop};
  const std::uint32_t lap = 4 * static_cast<std::uint32_t>(words.size());
  words.push_back(sls(false, a, status_address));
  if (rng.bernoulli(0.3))
    words.push_back(ri(add, r10, r10, rng.bernoulli(0.8) ? 0 : 1)); // kept, or drifting
  switch (rng.uniform_u32(0, 3)) {
  case 0:
    words.push_back(rr(and_, b, a, r9));
    break;
  case 1:
    words.push_back(rr(and_, b, r9, a));
    break;
  case 2: // the high half of the immediate is all ones: those bits decide too
    words.push_back(ri(and_, b, a, mask));
    break;
  default: // every bit decides
    words.push_back(ri(add, b, a, 0));
    words.push_back(rr(and_, b, b, r9));
    break;
  }
  words.push_back(ri(sub, r0, b, 0, true));
  words.push_back(br(7, lap)); // beq
  const std::uint32_t slots[] = {nop, ri(or_, r11, a, 0), rr(and_, r12, a, r9),
                                 ri(add, r13, r13, 0)};
  words.push_back(slots[rng.uniform_u32(0, 3)]);
  words.push_back(exit_with(a));
  return words;
}

// Runs `words` while events at random times flip bits of the status word
// outside `mask` (now and then one inside it, which ends the wait), each
// followed by a sample of the whole register file.
PollRun run_random_polling(const std::vector<std::uint32_t>& words, std::uint32_t mask,
                           bool fast_forward, std::uint64_t seed) {
  PollingCore p(words, fast_forward);
  lanai::kernel::RandomStream rng(seed, "polled-events");
  std::int64_t at_ps = 0;
  for (int i = 0; i < 120; ++i) {
    at_ps += 1 + static_cast<std::int64_t>(rng.exponential(1'500'000.0));
    std::uint32_t flip = 1u << rng.uniform_u32(0, 15);
    if ((flip & mask) != 0 && !rng.bernoulli(0.02)) // mostly a bit outside the mask
      flip = mask == 0xFFFF ? 1u << 20 : (~mask & 0xFFFF) & (~(~mask & 0xFFFF) + 1);
    if (i == 119)
      flip = mask & (~mask + 1); // the lowest bit of the mask: the wait ends
    p.kernel.schedule_at(lanai::kernel::SimTime::from_ps(at_ps),
                         [&p, flip] { p.bus.status ^= flip; });
    p.sample_at(lanai::kernel::SimTime::from_ps(at_ps + 1 + rng.uniform_u32(0, 120'000)));
  }
  return p.finish();
}

} // namespace

TEST_CASE("random polling loops under random changes of the word run exactly as without "
          "fast-forward") {
  std::uint64_t slept = 0, sliced = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    lanai::kernel::RandomStream rng(seed, "polled-loop");
    const std::uint32_t mask = rng.uniform_u32(1, 0xFFFF);
    const std::vector<std::uint32_t> words = random_poll(rng, mask);
    const PollRun plain = run_random_polling(words, mask, false, seed);
    const PollRun fast = run_random_polling(words, mask, true, seed);
    INFO("seed " << seed);
    check_identical(fast, plain);
    slept += fast.slices;
    sliced += plain.slices;
  }
  // The loops that decide on some bits slept through most changes.
  CHECK(slept * 2 < sliced);
}

TEST_CASE("a core waiting on one bit sleeps while other bits change, and events see it exactly") {
  const PollRun plain = run_polling(wait_for_bit(), false);
  const PollRun fast = run_polling(wait_for_bit(), true);
  check_same(fast, plain);
  // The samples saw the word's other bit change in r3, as the lap read it.
  int changes = 0;
  for (std::size_t i = 1; i < plain.samples.size(); ++i)
    changes += plain.samples[i].regs[r3] != plain.samples[i - 1].regs[r3];
  CHECK(changes > 50);
  // About 230 changes of the other bit, yet a few slices: the core slept
  // through them.
  CHECK(fast.slices < 20);
  CHECK(plain.slices > 400);
}

TEST_CASE("a core waiting on the whole word wakes at every change, with the same results") {
  const PollRun plain = run_polling(wait_whole_word(), false);
  const PollRun fast = run_polling(wait_whole_word(), true);
  check_same(fast, plain);
  CHECK(fast.slices > 100);
}

TEST_CASE("writes to data a polling lap does not load leave the core asleep") {
  const PollRun plain = run_polling(wait_for_bit(), false, Change::data);
  const PollRun fast = run_polling(wait_for_bit(), true, Change::data);
  check_same(fast, plain);
  CHECK(fast.slices < 20);
}

TEST_CASE("a write into the polling loop's code wakes the core, with the same results") {
  const PollRun plain = run_polling(wait_for_bit(), false, Change::code);
  const PollRun fast = run_polling(wait_for_bit(), true, Change::code);
  check_same(fast, plain);
  CHECK(fast.slices > 100);
}
