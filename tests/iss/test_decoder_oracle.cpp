// The decoder and disassembler against LLVM's own: every instruction word
// of the built firmware must print as llvm-objdump-14 prints it, and at
// least 100,000 random words as llvm-mc-14 (the same LLVM disassembler and
// printer, fed raw words) prints them, or be invalid for both.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "emulator/iss/decoder.hpp"
#include "emulator/iss/disassembler.hpp"
#include "emulator/kernel/random_stream.hpp"
#include "tests/iss/llvm_mc_oracle.hpp"
#include "emulator/machine/standalone_machine.hpp"

namespace {

// RRM words whose shift selector names no LLVM ALU code: llvm-mc 14 aborts
// on them instead of answering, so they are checked to be invalid here and
// left out of the comparison.
bool llvm_mc_crashes_on(std::uint32_t w) {
  const std::uint32_t opcode = w >> 28;
  return (opcode == 0xA || opcode == 0xB) && ((w >> 8) & 7u) == 7u && ((w >> 3) & 4u) != 0;
}

struct Tally {
  std::size_t compared = 0, valid = 0, invalid = 0, skipped = 0, mismatches = 0;
};

Tally compare(const std::vector<std::uint32_t>& all) {
  Tally t;
  std::vector<std::uint32_t> words;
  for (const auto w : all) {
    if (llvm_mc_crashes_on(w)) {
      CHECK(lanai::iss::decode(w).op == lanai::iss::OpClass::invalid);
      ++t.skipped;
    } else {
      words.push_back(w);
    }
  }
  const auto answers = lanai::test::ask_llvm_mc(LANAI_LLVM_MC, words);
  REQUIRE(answers.size() == words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (answers[i].crashed) {
      ++t.skipped;
      MESSAGE("llvm-mc crashed on " << std::hex << words[i]);
      continue;
    }
    ++t.compared;
    const std::string mine = lanai::iss::disassemble(words[i]);
    const std::string theirs = answers[i].text.value_or("<invalid>");
    (answers[i].text ? t.valid : t.invalid)++;
    if (mine != theirs && ++t.mismatches <= 20)
      MESSAGE("word 0x" << std::hex << words[i] << ": llvm-mc '" << theirs << "' emulator '" << mine
                        << "'");
  }
  MESSAGE("compared " << t.compared << " words (" << t.valid << " valid, " << t.invalid
                      << " invalid), skipped " << t.skipped);
  return t;
}

std::vector<std::uint32_t> firmware_words(const char* dir) {
  const auto profile = lanai::profile::default_profile();
  const auto image =
      lanai::machine::link_program(lanai::machine::objects_in_manifest(dir), profile);
  std::vector<std::uint32_t> words;
  for (std::uint32_t a = image.text_begin; a + 4 <= image.text_end; a += 4) {
    const std::size_t o = a - image.base;
    words.push_back(std::uint32_t(image.bytes[o]) << 24 | std::uint32_t(image.bytes[o + 1]) << 16 |
                    std::uint32_t(image.bytes[o + 2]) << 8 | image.bytes[o + 3]);
  }
  return words;
}

// Runs llvm-objdump -d on one object; returns (word, text) per instruction.
std::vector<std::pair<std::uint32_t, std::string>> objdump(const std::filesystem::path& obj) {
  const std::string cmd = std::string("'") + LANAI_LLVM_OBJDUMP + "' -d '" + obj.string() + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(cmd.c_str(), "r"), ::pclose);
  REQUIRE(pipe);
  std::vector<std::pair<std::uint32_t, std::string>> out;
  char buf[512];
  while (std::fgets(buf, sizeof buf, pipe.get())) {
    std::string line(buf);
    if (!line.empty() && line.back() == '\n')
      line.pop_back();
    // "      2c: 07 88 00 10  \tadd\t%pc, 0x10, %rca"
    const auto colon = line.find(": ");
    const auto tab = line.find('\t');
    if (colon == std::string::npos || tab == std::string::npos || tab < colon)
      continue;
    unsigned b[4];
    if (std::sscanf(line.c_str() + colon + 2, "%2x %2x %2x %2x", &b[0], &b[1], &b[2], &b[3]) != 4)
      continue;
    out.emplace_back(b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3], line.substr(tab + 1));
  }
  return out;
}

} // namespace

TEST_CASE("llvm-objdump's listing of every built firmware object matches the disassembler") {
  std::size_t words = 0, mismatches = 0;
  for (const char* dir :
       {LANAI_DEMO_DIR, LANAI_RUNTIME_DIR, LANAI_DIFF_O0_DIR, LANAI_DIFF_O2_DIR}) {
    for (const auto& obj : lanai::machine::objects_in_manifest(dir)) {
      for (const auto& [word, text] : objdump(obj)) {
        ++words;
        const std::string mine = lanai::iss::disassemble(word);
        if (mine != text && ++mismatches <= 20)
          MESSAGE(obj.filename().string() << ": word 0x" << std::hex << word << ": llvm-objdump '"
                                          << text << "' emulator '" << mine << "'");
      }
    }
  }
  MESSAGE("compared " << words << " instruction words with llvm-objdump");
  CHECK(words > 5000);
  CHECK(mismatches == 0);
}

TEST_CASE("every instruction word of the linked firmware disassembles as llvm-mc does") {
  std::set<std::uint32_t> unique;
  for (const char* dir : {LANAI_DEMO_DIR, LANAI_DIFF_O0_DIR, LANAI_DIFF_O2_DIR}) {
    const auto words = firmware_words(dir);
    REQUIRE(words.size() > 100);
    unique.insert(words.begin(), words.end());
  }
  const auto t = compare({unique.begin(), unique.end()});
  CHECK(t.mismatches == 0);
  CHECK(t.valid > 500);
}

TEST_CASE("100,000 random words decode as llvm-mc decodes them, or are invalid for both") {
  lanai::kernel::RandomStream rng(0x1A4A1, "decoder-oracle");
  std::vector<std::uint32_t> words;
  for (std::uint32_t w = 0; w < 64; ++w)
    words.push_back(w);
  words.push_back(0xFFFFFFFFu);
  while (words.size() < 101'100)
    words.push_back(static_cast<std::uint32_t>(rng.next_u64()));
  const auto t = compare(words);
  CHECK(t.compared >= 100'000);
  CHECK(t.mismatches == 0);
}
