// The hardware-profile keys a calibration fits: parsed from the command
// line ("lanai.alu_cycles,nic.hdma_setup_ns=500:4000"), bounded by the
// ranges of the profile's parameter table, read from and written back into
// a profile.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bench/calibration/least_squares_fit.hpp"
#include "emulator/profile/hardware_profile.hpp"

namespace lanai::bench {

// One FitParameter per key, starting at the profile's value. A key may
// narrow its range with "=LO:HI" (intersected with the table's range).
// Integer keys are fitted on integers. Throws CalibrationError for an
// unknown key (listing the valid ones), a repeated key or a bad range.
std::vector<FitParameter> parse_fit_keys(std::string_view list,
                                         const profile::HardwareProfile& base);

// `base` with the fitted keys set to `values` (integers rounded).
profile::HardwareProfile apply_fit(const profile::HardwareProfile& base,
                                   const std::vector<FitParameter>& keys,
                                   const std::vector<double>& values);

} // namespace lanai::bench
