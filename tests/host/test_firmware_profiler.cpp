// The firmware profile: counts summed per function of the linked image
// (extents from the recorded size, else to the next function; the rest
// outside any function), entries counted at a function's first
// instruction, names demangled, CSV fields quoted; and a cluster run with a
// profiler attributes every cycle each card executed.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "tests/host/cluster_fixture.hpp"
#include "emulator/host/firmware_profiler.hpp"

using lanai::host::FirmwareProfiler;
using lanai::host::NodeProfile;

namespace {

lanai::loader::LinkedImage three_functions() {
  lanai::loader::LinkedImage image;
  image.functions[0x00] = {"first", 0x10};
  image.functions[0x10] = {"_ZN3via4pollEv", 0}; // no size: up to the next start
  image.functions[0x40] = {"last", 0x08};
  return image;
}

const lanai::host::FunctionCost& cost_of(const NodeProfile& p, const std::string& name) {
  for (const auto& f : p.functions)
    if (f.function == name)
      return f;
  FAIL("no function " << name);
  throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("counts are summed per function, with entries at each function's first instruction") {
  lanai::iss::PcProfile counts(0x100);
  const auto put = [&](std::uint32_t address, std::uint64_t instructions, std::uint64_t cycles) {
    counts.instructions[address / 4] = instructions;
    counts.cycles[address / 4] = cycles;
  };
  put(0x00, 5, 5);   // first, entry
  put(0x0c, 20, 25); // first, a loop in it
  put(0x10, 7, 7);   // via::poll(), entry
  put(0x3c, 7, 14);  // via::poll(), last word before `last`
  put(0x44, 2, 2);   // last, inside its 8 bytes
  put(0x48, 3, 3);   // past `last`'s end: outside any function
  const NodeProfile p = lanai::host::attribute(3, counts, three_functions());
  CHECK(p.node == 3);
  CHECK(p.cycles == 56);
  REQUIRE(p.functions.size() == 4);
  CHECK(p.functions[0].function == "first"); // most cycles first
  CHECK(cost_of(p, "first").entries == 5);
  CHECK(cost_of(p, "first").instructions == 25);
  CHECK(cost_of(p, "first").cycles == 30);
  CHECK(cost_of(p, "via::poll()").entries == 7);
  CHECK(cost_of(p, "via::poll()").cycles == 21);
  CHECK(cost_of(p, "last").entries == 0);
  CHECK(cost_of(p, "last").cycles == 2);
  CHECK(cost_of(p, "(outside any function)").cycles == 3);
}

TEST_CASE("the CSV quotes names that hold commas and gives each function's share") {
  NodeProfile node;
  node.node = 1;
  node.cycles = 4;
  node.functions = {{"f(int, int)", 1, 3, 3}, {"g", 1, 1, 1}};
  std::ostringstream out;
  lanai::host::write_profile_csv(out, {node});
  CHECK(out.str() == "node,function,entries,instructions,cycles,share\n"
                     "1,\"f(int, int)\",1,3,3,0.750000\n"
                     "1,g,1,1,1,0.250000\n");
}

TEST_CASE("a profiled cluster run attributes every cycle each card executed") {
  auto config = host_test::test_config(2);
  FirmwareProfiler profiler;
  config.profiler = &profiler;
  lanai::host::Cluster cluster(config);
  const auto report = cluster.run({[&] {
                                     cluster.host(0).compute(lanai::kernel::microseconds(50));
                                     return 0;
                                   },
                                   [] { return 0; }});
  REQUIRE(report.success());
  const auto nodes = profiler.report();
  REQUIRE(nodes.size() == 2);
  for (std::uint32_t n = 0; n < 2; ++n) {
    CHECK(nodes[n].node == n);
    CHECK_FALSE(cluster.card(n).cpu().fast_forward());
    CHECK(cluster.card(n).cpu().skipped_cycles() == 0);
    CHECK(nodes[n].cycles == cluster.card(n).cpu().cycles());
    CHECK(nodes[n].cycles > 0);
    std::uint64_t sum = 0;
    for (const auto& f : nodes[n].functions)
      sum += f.cycles;
    CHECK(sum == nodes[n].cycles);
    CHECK(cost_of(nodes[n], "_start").entries == 1);
  }
}

TEST_CASE("a second run of the same firmware adds to the profile; other firmware is refused") {
  auto config = host_test::test_config(1);
  FirmwareProfiler profiler;
  config.profiler = &profiler;
  std::uint64_t first = 0;
  {
    lanai::host::Cluster cluster(config);
    REQUIRE(cluster.run({[] { return 0; }}).success());
    first = cluster.card(0).cpu().cycles();
  }
  {
    lanai::host::Cluster cluster(config);
    REQUIRE(cluster.run({[] { return 0; }}).success());
    CHECK(profiler.report().at(0).cycles == first + cluster.card(0).cpu().cycles());
  }
  auto other = host_test::test_config(1, "host_interrupting_via");
  other.profiler = &profiler;
  CHECK_THROWS_AS(lanai::host::Cluster{other}, std::invalid_argument);
}
