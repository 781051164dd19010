// Malformed input must end in a LoadError, never a crash or an out-of-bounds
// read: every truncation of real objects, and thousands of seeded mutations.
// CI runs these under AddressSanitizer and UndefinedBehaviorSanitizer.

#include <doctest/doctest.h>

#include <random>

#include "tests/loader/test_support.hpp"

namespace lanai::loader::test {
namespace {

enum class Outcome { linked, rejected };

// Links `subject` in place of objects[index]; anything but LoadError escapes
// and fails the test.
Outcome try_link(std::vector<ObjectInput> inputs, std::size_t index, const ObjectInput& subject) {
  inputs[index] = subject;
  try {
    const LinkedImage image = link(inputs, {});
    // A successful link must describe a consistent image.
    REQUIRE(image.image_end - image.base == image.bytes.size());
    REQUIRE(image.text_begin <= image.text_end);
    REQUIRE(image.bss_begin <= image.bss_end);
    return Outcome::linked;
  } catch (const LoadError&) {
    return Outcome::rejected;
  }
}

struct LinkSet {
  std::vector<std::string_view> names;
};

const std::vector<LinkSet>& link_sets() {
  static const std::vector<LinkSet> sets{
      {{"main_unit", "helper_unit"}},
      {{"cxx_a", "cxx_b"}},
      {{"small_model"}},
      {{"main_unit", "helper_unit", "weak_default", "common_a", "common_b"}},
  };
  return sets;
}

std::vector<ObjectInput> load(const LinkSet& set) {
  std::vector<ObjectInput> out;
  for (const std::string_view name : set.names)
    out.push_back(test_object(name));
  return out;
}

// Regions where a change is most likely to reach the parser's checks: the
// ELF header, the section header table and the symbol and relocation tables.
std::vector<std::pair<std::size_t, std::size_t>> metadata_regions(const ObjectInput& object) {
  const ObjectView view(object.data);
  std::vector<std::pair<std::size_t, std::size_t>> regions{{0, 52}};
  const std::size_t shoff = get32(object.data, 32);
  regions.emplace_back(shoff, view.sections().size() * 40);
  for (const ViewSection& s : view.sections()) {
    if (s.type == 2 || s.type == 4 || s.type == 17)
      regions.emplace_back(s.offset, s.size);
  }
  return regions;
}

} // namespace

TEST_CASE("every truncation of a valid object is rejected cleanly") {
  for (const LinkSet& set : link_sets()) {
    const auto inputs = load(set);
    for (std::size_t index = 0; index < inputs.size(); ++index) {
      const ObjectInput& original = inputs[index];
      CAPTURE(original.name);
      const std::size_t table_end =
          get32(original.data, 32) + std::size_t{get16(original.data, 48)} * 40;
      for (std::size_t length = 0; length < original.data.size(); ++length) {
        ObjectInput cut{
            original.name,
            {original.data.begin(), original.data.begin() + static_cast<std::ptrdiff_t>(length)}};
        CAPTURE(length);
        const Outcome outcome = try_link(inputs, index, cut);
        // Without its whole section header table no object can be linked.
        if (length < table_end)
          CHECK(outcome == Outcome::rejected);
      }
      CHECK(try_link(inputs, index, original) == Outcome::linked);
    }
  }
}

TEST_CASE("seeded random mutations never crash the loader") {
  std::mt19937 random(0x1a4a1);
  constexpr int iterations = 5000;
  int linked = 0;
  int rejected = 0;
  constexpr std::uint32_t interesting[] = {0,          1,          2,          3,         4,
                                           0x7f,       0x80,       0xff,       0xffff,    0x10000,
                                           0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff};
  for (int iteration = 0; iteration < iterations; ++iteration) {
    const LinkSet& set = link_sets()[random() % link_sets().size()];
    const auto inputs = load(set);
    const std::size_t index = random() % inputs.size();
    ObjectInput subject = inputs[index];
    const auto regions = metadata_regions(subject);
    const int changes = 1 + static_cast<int>(random() % 8);
    for (int c = 0; c < changes; ++c) {
      std::size_t at = random() % subject.data.size();
      if (random() % 4 != 0) { // mostly aim at the tables
        const auto& [begin, size] = regions[random() % regions.size()];
        if (size != 0)
          at = std::min(begin + random() % size, subject.data.size() - 1);
      }
      switch (random() % 4) {
      case 0:
        subject.data[at] = static_cast<std::uint8_t>(random());
        break;
      case 1:
        subject.data[at] ^= static_cast<std::uint8_t>(1u << (random() % 8));
        break;
      default: {
        at &= ~std::size_t{3};
        if (at + 4 > subject.data.size())
          break;
        const std::uint32_t value = random() % 2 == 0
                                        ? interesting[random() % std::size(interesting)]
                                        : static_cast<std::uint32_t>(random());
        put32(subject.data, at, value);
        break;
      }
      }
    }
    CAPTURE(iteration);
    if (try_link(inputs, index, subject) == Outcome::linked) {
      ++linked;
    } else {
      ++rejected;
    }
  }
  MESSAGE("mutations linked: ", linked, ", rejected: ", rejected);
  CHECK(linked + rejected == iterations);
  // Both outcomes occur: the mutations are neither all harmless nor all fatal.
  CHECK(linked > 0);
  CHECK(rejected > iterations / 4);
}

} // namespace lanai::loader::test
