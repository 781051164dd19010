// Tests of hardware profiles through parse_profile, load_profile and
// dump_profile: defaults, overrides, dump/parse round trips of every
// parameter, each error path's message, and the shipped benchmark profiles.
#include "emulator/profile/hardware_profile.hpp"
#include "emulator/text/text_file.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using namespace lanai::profile;

namespace {

// Compares through the parameter table so a parameter added later is
// covered without touching this file.
void check_equal(const HardwareProfile& a, const HardwareProfile& b, bool with_name = true) {
  if (with_name)
    CHECK(a.name == b.name);
  for (const auto& info : parameter_table()) {
    CAPTURE(info.key);
    if (info.real)
      CHECK(info.real_value(a) == info.real_value(b));
    else
      CHECK(info.integer_value(a) == info.integer_value(b));
  }
}

// The ProfileError message parse_profile gives for `text`; fails the test
// if the text is accepted or something else is thrown.
std::string error_of(const std::string& text, const std::string& source = "test.toml") {
  try {
    parse_profile(text, source);
  } catch (const ProfileError& e) {
    return e.what();
  }
  FAIL("profile was accepted: " << text);
  return {};
}

void check_error(const std::string& text, std::initializer_list<std::string> needles) {
  const std::string msg = error_of(text, "profiles/card.toml");
  CAPTURE(text);
  CAPTURE(msg);
  CHECK(msg.rfind("profiles/card.toml:", 0) == 0); // names the file first
  for (const auto& n : needles)
    CHECK(msg.find(n) != std::string::npos);
}

std::filesystem::path scratch_file(const std::string& name, const std::string& text) {
  const std::filesystem::path dir = LANAI_PROFILE_TEST_SCRATCH;
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

const ParamInfo* param(std::string_view key) {
  for (const auto& info : parameter_table())
    if (info.key == key)
      return &info;
  return nullptr;
}

} // namespace

TEST_CASE("defaults are the documented LANai values") {
  const auto p = default_profile();
  CHECK(p.name == "default");
  CHECK(p.lanai.clock_mhz == 66.0);
  CHECK(p.lanai.sram_bytes == 2u * 1024 * 1024);
  CHECK(p.lanai.alu_cycles == 1);
  CHECK(p.lanai.load_cycles == 1);
  CHECK(p.lanai.store_cycles == 1);
  CHECK(p.lanai.branch_taken_cycles == 2);
  CHECK(p.lanai.branch_untaken_cycles == 1);
  CHECK(p.lanai.mmio_cycles == 3);
  CHECK(p.lanai.load_use_stall_cycles == 1);
  CHECK(p.wire.link_mbytes_per_s == 160.0);
  CHECK(p.wire.link_latency_ns == 50);
  CHECK(p.wire.switch_latency_ns == 150);
  CHECK(p.wire.max_payload_bytes == 65600);
  // An empty file and a file of comments change nothing.
  check_equal(parse_profile("", "empty.toml"), p);
  check_equal(parse_profile("# nothing here\n\n[lanai]\n", "comments.toml"), p);
}

TEST_CASE("the parameter table describes each parameter once") {
  std::set<std::string_view> keys;
  for (const auto& info : parameter_table()) {
    CAPTURE(info.key);
    CHECK(keys.insert(info.key).second);
    const std::string_view section = info.key.substr(0, info.key.find('.'));
    CHECK((section == "lanai" || section == "wire" || section == "nic" || section == "host" ||
           section == "faults"));
    CHECK(!info.unit.empty());
    CHECK(!info.description.empty());
    CHECK((info.real == nullptr) != (info.integer == nullptr)); // exactly one member
  }
  CHECK(keys.size() == 34);
  REQUIRE(param("lanai.clock_mhz") != nullptr);
  auto probe = default_profile();
  CHECK(param("lanai.clock_mhz")->real(probe) == &probe.lanai.clock_mhz);
  REQUIRE(param("lanai.sram_bytes") != nullptr);
  CHECK(param("lanai.sram_bytes")->unit == "bytes");
}

TEST_CASE("overrides change only the keys given") {
  const auto p = parse_profile("name = \"fast card\"\n[lanai]\nload_cycles = 3\n", "o.toml");
  CHECK(p.name == "fast card");
  CHECK(p.lanai.load_cycles == 3);
  auto expected = default_profile();
  expected.name = "fast card";
  expected.lanai.load_cycles = 3;
  check_equal(p, expected);

  SUBCASE("dotted keys at the top level are the same as a table") {
    const auto d = parse_profile("lanai.mmio_cycles = 9\nlanai.clock_mhz = 50.5\n", "d.toml");
    CHECK(d.lanai.mmio_cycles == 9);
    CHECK(d.lanai.clock_mhz == 50.5);
    CHECK(d.name == "default");
  }
  SUBCASE("a whole number is a valid clock") {
    CHECK(parse_profile("[lanai]\nclock_mhz = 33\n", "c.toml").lanai.clock_mhz == 33.0);
  }
  SUBCASE("inclusive range limits are accepted") {
    const auto l = parse_profile("[lanai]\nclock_mhz = 10000.0\nsram_bytes = 4096\n"
                                 "alu_cycles = 1000\nload_use_stall_cycles = 0\n",
                                 "l.toml");
    CHECK(l.lanai.clock_mhz == 10000.0);
    CHECK(l.lanai.sram_bytes == 4096);
    CHECK(l.lanai.alu_cycles == 1000);
    CHECK(l.lanai.load_use_stall_cycles == 0);
    CHECK(parse_profile("[lanai]\nsram_bytes = 33554432\n", "l.toml").lanai.sram_bytes ==
          33554432u);
  }
}

TEST_CASE("dump then parse gives back every parameter") {
  SUBCASE("the defaults") {
    check_equal(parse_profile(dump_profile(default_profile()), "d"), default_profile());
  }

  SUBCASE("each parameter changed on its own") {
    for (const auto& info : parameter_table()) {
      CAPTURE(info.key);
      auto p = default_profile();
      if (info.real) // needs all 17 digits to survive, and inside the range
        *info.real(p) = info.max >= 100.0 ? 1.0 / 3.0 * 100.0 : 1.0 / 3.0 * info.max;
      else if (info.key == "lanai.sram_bytes")
        p.lanai.sram_bytes = 4096 * 3 + 4;
      else // a value other than the default, inside the range
        *info.integer(p) = info.max >= 997 ? 997u : static_cast<std::uint32_t>(info.max);
      const auto text = dump_profile(p);
      const auto back = parse_profile(text, "dumped.toml");
      check_equal(back, p);
      CHECK(dump_profile(back) == text);
    }
  }

  SUBCASE("awkward clock values") {
    for (double mhz : {0.1, 1e-5, 33.0, 66.666666666666671, 9999.999, 10000.0}) {
      CAPTURE(mhz);
      auto p = default_profile();
      p.lanai.clock_mhz = mhz;
      CHECK(parse_profile(dump_profile(p), "c").lanai.clock_mhz == mhz);
    }
  }

  SUBCASE("everything changed at once") {
    HardwareProfile p;
    p.name = "everything changed";
    p.lanai = LanaiParams{{2, 3, 4, 5, 6, 7, 8}, 41.5, 1u << 20};
    check_equal(parse_profile(dump_profile(p), "all"), p);
  }

  SUBCASE("names with TOML-special characters") {
    // A name loaded from a literal string may hold quotes and backslashes;
    // the dump must still be TOML that reads back to the same name.
    const auto p = parse_profile("name = 'say \"hi\" \\ bye'\n", "n.toml");
    REQUIRE(p.name == "say \"hi\" \\ bye");
    const auto text = dump_profile(p);
    CAPTURE(text);
    HardwareProfile back;
    CHECK_NOTHROW(back = parse_profile(text, "dumped.toml"));
    CHECK(back.name == p.name);
  }
}

TEST_CASE("the dump documents each parameter") {
  const auto text = dump_profile(default_profile());
  CHECK(text.rfind("# ", 0) == 0);
  CHECK(text.find("name = \"default\"\n") != std::string::npos);
  CHECK(text.find("\n[lanai]\n") != std::string::npos);
  CHECK(text.find("clock_mhz = 66.0  #") != std::string::npos); // a float stays a float
  for (const auto& info : parameter_table()) {
    CAPTURE(info.key);
    const auto leaf = std::string(info.key.substr(info.key.find('.') + 1));
    const auto at = text.find("\n" + leaf + " = ");
    REQUIRE(at != std::string::npos);
    const auto line = text.substr(at + 1, text.find('\n', at + 1) - at - 1);
    CHECK(line.find(std::string(info.description)) != std::string::npos);
    CHECK(line.find("(" + std::string(info.unit) + ")") != std::string::npos);
  }
}

TEST_CASE("unknown keys are rejected by their full name") {
  check_error("colour = \"red\"\n", {"unknown key 'colour'"});
  check_error("[lanai]\nclock_mhz = 50.0\nfrobnicate = 1\n", {"unknown key 'lanai.frobnicate'"});
  check_error("[pci]\nlanes = 4\n", {"unknown key 'pci.lanes'"});
  check_error("lanai = 3\n", {"unknown key 'lanai'"});
  check_error("[lanai]\nname = \"x\"\n", {"unknown key 'lanai.name'"});
}

TEST_CASE("values of the wrong type are rejected naming the key") {
  check_error("name = 3\n", {"name must be a string"});
  check_error("[lanai]\nclock_mhz = \"fast\"\n", {"lanai.clock_mhz", "must be a number"});
  check_error("[lanai]\nclock_mhz = true\n", {"lanai.clock_mhz", "must be a number"});
  check_error("[lanai]\nclock_mhz = [66.0]\n", {"lanai.clock_mhz", "must be a number"});
  check_error("[lanai]\nclock_mhz = nan\n", {"lanai.clock_mhz", "must be a number"});
  check_error("[lanai]\nclock_mhz = inf\n", {"lanai.clock_mhz", "must be a number"});
  check_error("[lanai]\nalu_cycles = \"1\"\n", {"lanai.alu_cycles", "non-negative integer"});
  check_error("[lanai]\nload_cycles = 1.5\n", {"lanai.load_cycles", "non-negative integer"});
  check_error("[lanai]\nload_cycles = 2.0\n", {"lanai.load_cycles", "non-negative integer"});
  check_error("[lanai]\nsram_bytes = 2097152.0\n", {"lanai.sram_bytes", "non-negative integer"});
  // A float too large for any integer type (found by fuzz_profile; reading
  // it as an integer first was undefined).
  check_error("[lanai]\nsram_bytes = 5e90\n", {"lanai.sram_bytes", "non-negative integer"});
  check_error("[lanai]\nsram_bytes = -5e90\n", {"lanai.sram_bytes", "non-negative integer"});
}

TEST_CASE("integers out of range are rejected naming the key") {
  check_error("[lanai]\nstore_cycles = -2\n", {"lanai.store_cycles", "non-negative integer"});
  check_error("[lanai]\nsram_bytes = -4096\n", {"lanai.sram_bytes", "non-negative integer"});
  check_error("[lanai]\nmmio_cycles = 4294967296\n", {"lanai.mmio_cycles", "non-negative integer"});
  check_error("[lanai]\nbranch_taken_cycles = 1001\n",
              {"lanai.branch_taken_cycles", "[1, 1000]", "1001"});
  check_error("[lanai]\nload_use_stall_cycles = 4294967295\n",
              {"lanai.load_use_stall_cycles", "[0, 1000]"});
  check_error("[lanai]\nalu_cycles = 0\n", {"lanai.alu_cycles", "[1, 1000]", "got 0"});
  check_error("[lanai]\nmmio_cycles = 0\n", {"lanai.mmio_cycles", "[1, 1000]"});
}

TEST_CASE("the clock must be positive and at most 10 GHz") {
  check_error("[lanai]\nclock_mhz = 0.0\n", {"lanai.clock_mhz", "(0, 10000]", "got 0"});
  check_error("[lanai]\nclock_mhz = -66.0\n", {"lanai.clock_mhz", "got -66"});
  check_error("[lanai]\nclock_mhz = 10000.5\n", {"lanai.clock_mhz", "got 10000.5"});
}

TEST_CASE("SRAM must be a word multiple between 4 KiB and 32 MiB") {
  check_error("[lanai]\nsram_bytes = 65538\n", {"lanai.sram_bytes", "multiple of 4", "65538"});
  check_error("[lanai]\nsram_bytes = 4095\n", {"lanai.sram_bytes", "4095"});
  check_error("[lanai]\nsram_bytes = 4092\n", {"lanai.sram_bytes", "[4096, 33554432]", "4092"});
  check_error("[lanai]\nsram_bytes = 33554436\n", {"lanai.sram_bytes", "33554436"});
  check_error("[lanai]\nsram_bytes = 0\n", {"lanai.sram_bytes", "got 0"});
}

TEST_CASE("TOML syntax errors give file, line and column") {
  check_error("name = \"x\"\n[lanai]\nload_cycles = = 2\n", {"profiles/card.toml:3:"});
  check_error("name = \"unterminated\n", {"profiles/card.toml:1:"});
  check_error("[lanai]\nload_cycles = 1\nload_cycles = 2\n", {"profiles/card.toml:3:"});
  check_error("[lanai]\n[lanai]\n", {"profiles/card.toml:2:"});
  // line:column is followed by a description, not left bare.
  const auto msg = error_of("[lanai\n", "s.toml");
  CAPTURE(msg);
  const auto colon = msg.find(": ", std::string("s.toml:1:").size());
  REQUIRE(colon != std::string::npos);
  CHECK(msg.size() > colon + 2);
}

TEST_CASE("load_profile reads files and names them in errors") {
  const auto good = scratch_file("good.toml", "name = \"from file\"\n[lanai]\nalu_cycles = 2\n");
  const auto p = load_profile(good);
  CHECK(p.name == "from file");
  CHECK(p.lanai.alu_cycles == 2);

  const auto bad = scratch_file("bad.toml", "[lanai]\nalu_cycles = -1\n");
  try {
    load_profile(bad);
    FAIL("a negative count was accepted");
  } catch (const ProfileError& e) {
    const std::string msg = e.what();
    CHECK(msg.rfind(bad.string() + ": ", 0) == 0);
    CHECK(msg.find("lanai.alu_cycles") != std::string::npos);
  }

  const auto missing = good.parent_path() / "does_not_exist.toml";
  try {
    load_profile(missing);
    FAIL("a missing file was accepted");
  } catch (const ProfileError& e) {
    CHECK(std::string(e.what()) == missing.string() + ": cannot open profile");
  }

  // Bounded reads: a device or a directory is refused before a byte is read,
  // and so is a file past the size any input may have.
  CHECK_THROWS_WITH_AS(load_profile("/dev/zero"),
                       "/dev/zero: not a regular file (a directory, device or pipe cannot be read "
                       "as input)",
                       ProfileError);
  CHECK_THROWS_WITH_AS(load_profile(good.parent_path()), doctest::Contains("not a regular file"),
                       ProfileError);
  const auto huge = scratch_file("huge.toml", "");
  std::filesystem::resize_file(huge, lanai::text::max_text_file_bytes + 1);
  CHECK_THROWS_WITH_AS(load_profile(huge),
                       (huge.string() + ": 16777217 bytes, more than the 16 MiB an input file "
                                        "may have")
                           .c_str(),
                       ProfileError);
  std::filesystem::remove(huge);
}

TEST_CASE("shipped benchmark profiles") {
  const std::filesystem::path dir = LANAI_BENCH_PROFILES_DIR;
  SUBCASE("lanai7-default holds the built-in defaults") {
    const auto p = load_profile(dir / "lanai7-default.toml");
    CHECK(p.name == "lanai7-default");
    check_equal(p, default_profile(), /*with_name=*/false);
  }
  SUBCASE("every shipped profile loads") {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".toml")
        continue;
      CAPTURE(entry.path().string());
      CHECK_NOTHROW(load_profile(entry.path()));
      ++count;
    }
    CHECK(count >= 1);
  }
}

TEST_CASE("host.admission_fraction is 0 (off) or a fraction in (0, 1]") {
  CHECK(default_profile().host.admission_fraction == 0.0);
  CHECK(parse_profile("[host]\nadmission_fraction = 0.0\n", "a.toml").host.admission_fraction ==
        0.0);
  CHECK(parse_profile("[host]\nadmission_fraction = 0.9\n", "a.toml").host.admission_fraction ==
        0.9);
  CHECK(parse_profile("[host]\nadmission_fraction = 1\n", "a.toml").host.admission_fraction == 1.0);
  check_error("[host]\nadmission_fraction = 1.5\n",
              {"host.admission_fraction", "0 (off) or in (0, 1]", "1.5"});
  check_error("[host]\nadmission_fraction = -0.1\n", {"host.admission_fraction", "-0.1"});
}

TEST_CASE("[faults]: probabilities in [0, 1], a seed, and windows when a link is down") {
  const auto off = default_profile().faults;
  CHECK(off.drop_probability == 0.0);
  CHECK(off.corrupt_probability == 0.0);
  CHECK(off.link_down.empty());
  CHECK_FALSE(off.any());

  const auto p =
      parse_profile("[faults]\ndrop_probability = 0.01\ncorrupt_probability = 1\nseed = 99\n"
                    "link_down = [{link = \"wire.node1.rx\", from_us = 10, until_us = 20.5},\n"
                    "             {link = \"wire.sw0_to_sw1\", from_us = 0.0, until_us = 1.0}]\n",
                    "f.toml");
  CHECK(p.faults.drop_probability == 0.01);
  CHECK(p.faults.corrupt_probability == 1.0);
  CHECK(p.faults.seed == 99);
  REQUIRE(p.faults.link_down.size() == 2);
  CHECK(p.faults.link_down[0].link == "wire.node1.rx");
  CHECK(p.faults.link_down[0].from_us == 10.0);
  CHECK(p.faults.link_down[0].until_us == 20.5);
  CHECK(p.faults.any());

  SUBCASE("a dump loads back to the same faults") {
    const auto again = parse_profile(dump_profile(p), "dump.toml");
    CHECK(again.faults.drop_probability == 0.01);
    CHECK(again.faults.seed == 99);
    REQUIRE(again.faults.link_down.size() == 2);
    CHECK(again.faults.link_down[1].link == "wire.sw0_to_sw1");
    CHECK(again.faults.link_down[1].until_us == 1.0);
  }
  SUBCASE("bad values name the key") {
    check_error("[faults]\ndrop_probability = 1.5\n", {"faults.drop_probability", "[0, 1]", "1.5"});
    check_error("[faults]\ncorrupt_probability = -0.1\n", {"faults.corrupt_probability"});
    check_error("[faults]\nseed = -1\n", {"faults.seed", "non-negative integer"});
    check_error("[faults]\nlink_down = 3\n", {"faults.link_down must be an array"});
    check_error("[faults]\nlink_down = [1]\n", {"faults.link_down[0] must be a table"});
    check_error("[faults]\nlink_down = [{from_us = 0, until_us = 1}]\n",
                {"faults.link_down[0].link"});
    check_error("[faults]\nlink_down = [{link = \"x\", from_us = 0}]\n",
                {"faults.link_down[0]", "from_us and until_us"});
    check_error("[faults]\nlink_down = [{link = \"x\", from_us = 5, until_us = 5}]\n",
                {"faults.link_down[0]", "from_us < until_us"});
    check_error("[faults]\nlink_down = [{link = \"x\", from_us = 0, until_us = 1, when = 2}]\n",
                {"faults.link_down[0]", "unknown key 'when'"});
  }
}
