// The definition of the SRAM configuration block. Zero until the host driver
// fills it with PCI writes; firmware waits for the magic word before using
// any of it.
#include "common/nic_config.h"
#include "common/sram_placement.h"

namespace via::abi_symbol {
// Zeroed at load rather than by start-up code, which would otherwise erase
// whatever a driver wrote between loading the card and the firmware's
// first instructions.
VIA_ZEROED_AT_LOAD volatile ::via_nic_config_block via_nic_config{};
} // namespace via::abi_symbol
