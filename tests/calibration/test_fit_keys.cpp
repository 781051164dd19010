// Fit keys: parsed against the profile's parameter table, bounded by its
// ranges, and written back into a profile.
#include <doctest/doctest.h>

#include <string>

#include "bench/calibration/fit_keys.hpp"
#include "bench/calibration/target_table.hpp"

using lanai::bench::apply_fit;
using lanai::bench::CalibrationError;
using lanai::bench::parse_fit_keys;

TEST_CASE("keys take the profile's value, range and kind") {
  const auto base = lanai::profile::default_profile();
  const auto keys =
      parse_fit_keys("lanai.alu_cycles,nic.hdma_setup_ns=500:4000,lanai.clock_mhz=33:66", base);
  REQUIRE(keys.size() == 3);
  CHECK(keys[0].integer);
  CHECK(keys[0].initial == base.lanai.alu_cycles);
  CHECK(keys[0].lower == 1);   // every instruction class takes a cycle
  CHECK(keys[1].lower == 500); // narrowed
  CHECK(keys[1].upper == 4000);
  CHECK_FALSE(keys[2].integer);
  CHECK(keys[2].upper == 66);

  const auto fitted = apply_fit(base, keys, {2.4, 2999.6, 50.5});
  CHECK(fitted.lanai.alu_cycles == 2);
  CHECK(fitted.nic.hdma_setup_ns == 3000);
  CHECK(fitted.lanai.clock_mhz == 50.5);
  CHECK(fitted.host.post_ns == base.host.post_ns);
}

TEST_CASE("a narrowed range never widens the table's") {
  const auto keys =
      parse_fit_keys("lanai.load_use_stall_cycles=-5:3", lanai::profile::default_profile());
  CHECK(keys[0].lower == 0);
  CHECK(keys[0].upper == 3);
}

TEST_CASE("bad keys are refused with the valid ones listed") {
  const auto base = lanai::profile::default_profile();
  CHECK_THROWS_WITH_AS(
      parse_fit_keys("lanai.alu_cycles,lanai.speed", base),
      doctest::Contains("unknown key 'lanai.speed'; valid keys: lanai.clock_mhz, "),
      CalibrationError);
  CHECK_THROWS_WITH_AS(parse_fit_keys("host.post_ns,host.post_ns", base),
                       "--fit: key 'host.post_ns' given twice", CalibrationError);
  CHECK_THROWS_WITH_AS(parse_fit_keys("host.post_ns=9", base),
                       "--fit: bad range in 'host.post_ns=9' (expected KEY=LO:HI)",
                       CalibrationError);
  CHECK_THROWS_WITH_AS(parse_fit_keys("lanai.mmio_cycles=5:2", base),
                       doctest::Contains("empty range for lanai.mmio_cycles"), CalibrationError);
  CHECK_THROWS_WITH_AS(parse_fit_keys("lanai.sram_bytes", base), doctest::Contains("multiple of 4"),
                       CalibrationError);
}
