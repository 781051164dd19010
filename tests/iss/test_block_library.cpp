// Blocks shared between cores through a library: a core is handed exactly
// the block it would have built, and only when its SRAM holds every word the
// block was built from (the word that ended the block included); a full
// library leaves cores to build their own; a program runs the same on a core
// that decodes nothing itself; and cutting prefixes never makes a core drop
// its blocks.
#include <doctest/doctest.h>

#include <vector>

#include "emulator/iss/block_builder.hpp"
#include "emulator/iss/block_cache.hpp"
#include "emulator/iss/block_library.hpp"
#include "tests/iss/block_twin.hpp"
#include "tests/iss/lanai_encoding.hpp"

using namespace lanai::test;

namespace {

constexpr std::uint32_t sram_bytes = 0x100;

std::vector<std::uint8_t> sram_with(std::initializer_list<std::uint32_t> words) {
  std::vector<std::uint8_t> sram(sram_bytes);
  std::uint32_t at = 0;
  for (const std::uint32_t word : words) {
    for (int b = 0; b < 4; ++b)
      sram[at + b] = static_cast<std::uint8_t>(word >> (24 - 8 * b));
    at += 4;
  }
  return sram;
}

// The block as built from scratch equals `block`, operation by operation.
void check_same_as_built(const lanai::iss::Block& block, const std::vector<std::uint8_t>& sram,
                         const lanai::iss::CycleCosts& costs) {
  std::vector<lanai::iss::BlockOp> ops;
  const lanai::iss::Block built =
      lanai::iss::build_block(block.pc, sram.data(), sram_bytes, costs, ops);
  REQUIRE(block.count == built.count);
  CHECK(block.end_pc == built.end_pc);
  CHECK(block.cycles == built.cycles);
  CHECK(block.max_start == built.max_start);
  CHECK(block.first_reads == built.first_reads);
  CHECK(block.loaded_after == built.loaded_after);
  CHECK(block.delay_slots == built.delay_slots);
  for (std::uint32_t i = 0; i <= block.count; ++i) {
    CHECK(block.ops[i].kind == ops[i].kind);
    CHECK(block.ops[i].imm == ops[i].imm);
    CHECK(block.ops[i].start == ops[i].start);
    CHECK(block.ops[i].rd == ops[i].rd);
  }
}

} // namespace

TEST_CASE("a second core is handed the block the first built, the one it would build") {
  const lanai::iss::CycleCosts costs;
  lanai::iss::BlockLibrary library;
  const auto sram = sram_with({ri(add, r3, r3, 1), ri(add, r6, r6, 2), br(0, 0x40), nop});
  lanai::iss::BlockCache first(sram_bytes, &library), second(sram_bytes, &library);
  const lanai::iss::Block& built = first.build(0, sram.data(), sram_bytes, costs);
  REQUIRE(built.count == 4);
  CHECK(library.blocks() == 1);
  CHECK(library.weight() == 6); // four operations, the `end` and the record
  const lanai::iss::Block& handed = second.build(0, sram.data(), sram_bytes, costs);
  CHECK(handed.ops == built.ops); // not decoded again
  CHECK(library.blocks() == 1);
  check_same_as_built(handed, sram, costs);
}

TEST_CASE("a block is handed only to SRAM holding every word it was built from") {
  const lanai::iss::CycleCosts costs;
  lanai::iss::BlockLibrary library;
  // Two adds, then an add into the pc, which a block cannot hold: the block
  // ends before it, having read it.
  const auto ended = sram_with({ri(add, r3, r3, 1), ri(add, r6, r6, 2), ri(add, pc, r0, 0x40)});
  // The same two adds, then an ordinary add: a longer block.
  const auto longer =
      sram_with({ri(add, r3, r3, 1), ri(add, r6, r6, 2), ri(add, r7, r7, 3), br(0, 0x40), nop});
  // A different second add.
  const auto other = sram_with({ri(add, r3, r3, 1), ri(add, r6, r6, 9), ri(add, pc, r0, 0x40)});
  lanai::iss::BlockCache a(sram_bytes, &library), b(sram_bytes, &library), c(sram_bytes, &library);
  const lanai::iss::Block& short_block = a.build(0, ended.data(), sram_bytes, costs);
  REQUIRE(short_block.count == 2);
  const lanai::iss::Block& long_block = b.build(0, longer.data(), sram_bytes, costs);
  CHECK(long_block.count == 5);
  check_same_as_built(long_block, longer, costs);
  const lanai::iss::Block& other_block = c.build(0, other.data(), sram_bytes, costs);
  CHECK(other_block.ops[1].imm == 9u);
  check_same_as_built(other_block, other, costs);
  CHECK(library.blocks() == 3);
  // Each is found again by SRAM holding its words.
  CHECK(library.find(0, ended.data())->ops == short_block.ops);
  CHECK(library.find(0, longer.data())->ops == long_block.ops);
  CHECK(library.find(0, other.data())->ops == other_block.ops);
  CHECK(library.find(4, ended.data()) == nullptr);
}

TEST_CASE("a full library keeps no more, and the core builds and keeps its own") {
  const lanai::iss::CycleCosts costs;
  lanai::iss::BlockLibrary library(5);
  const auto sram = sram_with({ri(add, r3, r3, 1), ri(add, r6, r6, 2), br(0, 0x40), nop});
  lanai::iss::BlockCache cache(sram_bytes, &library);
  const lanai::iss::Block& block = cache.build(0, sram.data(), sram_bytes, costs);
  CHECK(library.blocks() == 0);
  CHECK(library.weight() == 0);
  REQUIRE(block.ops != nullptr);
  check_same_as_built(block, sram, costs);
  CHECK(cache.entries()[0] == &block);
}

TEST_CASE("a program runs the same on a core that takes every block from the library") {
  // A loop that counts down, calls nothing and exits with its sum; the
  // first twin's core builds the blocks, the second's finds them all.
  const std::vector<std::uint32_t> program = {ri(add, r3, r0, 200),     // 0x00 r3 <- 200
                                              ri(add, r6, r0, 0),       // 0x04 r6 <- 0
                                              rr(add, r6, r6, r3),      // 0x08 loop: r6 += r3
                                              ri(sub, r3, r3, 1, true), // 0x0c r3 -= 1, flags
                                              br(6, 0x08),    // 0x10 bne: back while r3 != 0
                                              nop,            // 0x14 delay slot
                                              exit_with(r6)}; // 0x18
  std::uint32_t results[2] = {};
  std::uint64_t cycles[2] = {};
  for (int round = 0; round < 2; ++round) {
    BlockTwin twin(program);
    while (twin.run(twin.reference().cycles() + 37))
      REQUIRE(twin.difference().empty());
    REQUIRE(twin.difference().empty());
    CHECK(twin.blocks().block_instructions() > 0);
    results[round] = twin.blocks_bus().log.back().value;
    // The loop's block is in the process's library, built from these words.
    const lanai::iss::BlockLibrary& library =
        lanai::iss::BlockLibrary::of(BlockTwin::sram, lanai::iss::CycleCosts{});
    CHECK(library.find(0x08, twin.blocks().sram_view(0, BlockTwin::sram).data()) != nullptr);
    cycles[round] = twin.blocks().cycles();
  }
  CHECK(results[0] == 200u * 201u / 2u);
  CHECK(results[1] == results[0]);
  CHECK(cycles[1] == cycles[0]);
}

TEST_CASE("prefixes cut again and again never make a core drop its blocks") {
  const lanai::iss::CycleCosts costs;
  std::vector<std::uint32_t> words(40, ri(add, r3, r3, 1));
  words.push_back(br(0, 0x00));
  words.push_back(nop);
  std::vector<std::uint8_t> sram(sram_bytes);
  for (std::uint32_t i = 0; i < words.size(); ++i)
    for (int b = 0; b < 4; ++b)
      sram[4 * i + b] = static_cast<std::uint8_t>(words[i] >> (24 - 8 * b));
  lanai::iss::BlockCache cache(sram_bytes);
  // Blocks entered at each of the first ten words, and more prefixes of
  // them than the cache has places for: they replace one another.
  std::vector<const lanai::iss::Block*> blocks;
  for (std::uint32_t entry = 0; entry < 10; ++entry)
    blocks.push_back(&cache.build(4 * entry, sram.data(), sram_bytes, costs));
  REQUIRE(blocks[0]->count == 42);
  const std::uint64_t generation = cache.generation();
  for (int round = 0; round < 100; ++round)
    for (const lanai::iss::Block* block : blocks)
      for (std::uint32_t count = 1; count <= 30; ++count) {
        const lanai::iss::Block& prefix = cache.prefix(*block, count);
        REQUIRE(prefix.count == count);
        REQUIRE(prefix.pc == block->pc);
        REQUIRE(prefix.ops[count].kind == lanai::iss::OpKind::end);
      }
  // A block built now finds the others where they were: no reclaim dropped
  // them.
  const lanai::iss::Block& later = cache.build(4 * 10, sram.data(), sram_bytes, costs);
  CHECK(later.count == 32);
  CHECK(cache.generation() == generation);
  for (std::uint32_t entry = 0; entry < 10; ++entry)
    CHECK(cache.entries()[entry] == blocks[entry]);
}
