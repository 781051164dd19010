// Cycles charged per instruction class: the hardware profile's own
// (profile::InstructionCycles, part of its LANai parameters), taken as they
// are.
#pragma once

#include "emulator/profile/hardware_profile.hpp"

namespace lanai::iss {

using CycleCosts = profile::InstructionCycles;

} // namespace lanai::iss
