// Firmware that offers the VIA configuration block, says so on the debug
// console and then only spins: enough for the host library to open the NIC
// and create and connect VIs, while no descriptor is ever served.
#include <stdint.h>

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

namespace host_test {
// In .data rather than .bss: start-up must not clear what the driver wrote.
extern "C" [[gnu::section(".data")]] volatile ::via_nic_config_block via_nic_config;
volatile ::via_nic_config_block via_nic_config;
} // namespace host_test

static volatile uint32_t spins;

// C linkage: _start calls main by its plain name, which freestanding C++ would mangle.
extern "C" int main() {
  for (const char* c = "idle VIA firmware\n"; *c; ++c)
    *reinterpret_cast<volatile uint32_t*>(LANAI_REG_CONSOLE) = static_cast<uint8_t>(*c);
  for (;;)
    spins = spins + 1;
}
