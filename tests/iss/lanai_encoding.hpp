// Hand encoders for the Lanai instruction formats, so directed tests can
// place exact instruction words without an assembler.
#pragma once

#include <cstdint>

namespace lanai::test {

enum Reg : std::uint32_t {
  r0 = 0,
  r1 = 1,
  pc = 2,
  r3 = 3,
  sp = 4,
  fp = 5,
  r6 = 6,
  r7 = 7,
  rv = 8,
  r9 = 9,
  r10 = 10,
  r11 = 11,
  r12 = 12,
  r13 = 13,
  rca = 15
};
enum Alu : std::uint32_t {
  add = 0,
  addc = 1,
  sub = 2,
  subb = 3,
  and_ = 4,
  or_ = 5,
  xor_ = 6,
  shift = 7
};

// RI: rd <- rs1 op imm16 (low half unless `high`).
constexpr std::uint32_t ri(Alu op, std::uint32_t rd, std::uint32_t rs1, std::uint32_t imm16,
                           bool flags = false, bool high = false) {
  return op << 28 | rd << 23 | rs1 << 18 | std::uint32_t(flags) << 17 | std::uint32_t(high) << 16 |
         (imm16 & 0xFFFFu);
}
// RR: rd <- rs1 op rs2 iff cond; j selects shifts (0x10 sh, 0x18 sha) for op 7.
constexpr std::uint32_t rr(Alu op, std::uint32_t rd, std::uint32_t rs1, std::uint32_t rs2,
                           bool flags = false, std::uint32_t cond = 0, std::uint32_t j = 0) {
  return 0xCu << 28 | rd << 23 | rs1 << 18 | std::uint32_t(flags) << 17 | (cond & 1u) << 16 |
         rs2 << 11 | op << 8 | j << 3 | (cond >> 1);
}
// RM: load (store=false) or store of a word, PQ addressing mode, 16-bit offset.
constexpr std::uint32_t rm(bool store, std::uint32_t rd, std::uint32_t rs1, std::uint32_t pq,
                           std::int32_t offset) {
  return (0x8u | std::uint32_t(store)) << 28 | rd << 23 | rs1 << 18 | pq << 16 |
         (std::uint32_t(offset) & 0xFFFFu);
}
// RRM: part-word access at rs1 op rs2; yl: 1 word, 0 half, 2 byte; e zero-extends.
constexpr std::uint32_t rrm(bool store, std::uint32_t rd, std::uint32_t rs1, std::uint32_t rs2,
                            std::uint32_t pq, std::uint32_t yl, bool e, Alu op = add) {
  return (0xAu | std::uint32_t(store)) << 28 | rd << 23 | rs1 << 18 | pq << 16 | rs2 << 11 |
         op << 8 | yl << 1 | std::uint32_t(e);
}
// BR: absolute conditional branch.
constexpr std::uint32_t br(std::uint32_t cond, std::uint32_t target) {
  return 0xEu << 28 | (cond >> 1) << 25 | (target & 0x01FFFFFCu) | (cond & 1u);
}
// SCC: rd <- condition.
constexpr std::uint32_t scc(std::uint32_t cond, std::uint32_t rd) {
  return 0xEu << 28 | (cond >> 1) << 25 | rd << 18 | 2u | (cond & 1u);
}
// SLS: absolute load/store, 21-bit address (sign-extended by the CPU).
constexpr std::uint32_t sls(bool store, std::uint32_t rd, std::uint32_t addr) {
  return 0xFu << 28 | rd << 23 | ((addr >> 16) & 0x1Fu) << 18 | std::uint32_t(store) << 16 |
         (addr & 0xFFFFu);
}
// SLI: rd <- 21-bit constant.
constexpr std::uint32_t sli(std::uint32_t rd, std::uint32_t value) {
  return 0xFu << 28 | rd << 23 | ((value >> 16) & 0x1Fu) << 18 | 2u << 16 | (value & 0xFFFFu);
}
// SPLS: half-word / byte access with a 10-bit offset.
constexpr std::uint32_t spls(bool store, bool byte, bool zext, std::uint32_t rd, std::uint32_t rs1,
                             std::uint32_t pq, std::int32_t offset) {
  return 0xFu << 28 | rd << 23 | rs1 << 18 | 6u << 15 | std::uint32_t(byte) << 14 |
         std::uint32_t(store) << 13 | std::uint32_t(zext) << 12 | pq << 10 |
         (std::uint32_t(offset) & 0x3FFu);
}
constexpr std::uint32_t special(std::uint32_t op, std::uint32_t rd, std::uint32_t rs1) {
  return 0xDu << 28 | rd << 23 | rs1 << 18 | op;
}
constexpr std::uint32_t nop = 0x00000001u;
// Writes r3 to the exit register (0xFFFF0004 is reachable as a signed 21-bit address).
constexpr std::uint32_t exit_with(std::uint32_t reg) { return sls(true, reg, 0x1F0004u); }

} // namespace lanai::test
