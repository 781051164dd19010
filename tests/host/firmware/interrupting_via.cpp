// Firmware that waits until the driver has configured it and connected
// VI 0, then raises one host interrupt of each kind: receive queue empty on
// VI 0, doorbells lost (no VI named), and a bad packet for VI 0.
#include <stdint.h>

#include <lanai/register_map.h>
#include <lanai/via_abi.h>

namespace host_test {
extern "C" [[gnu::section(".data")]] volatile ::via_nic_config_block via_nic_config;
volatile ::via_nic_config_block via_nic_config;
} // namespace host_test

static volatile ::via_nic_config_block& config() { return host_test::via_nic_config; }

static volatile uint32_t spins;

// C linkage: _start calls main by its plain name, which freestanding C++ would mangle.
extern "C" int main() {
  while (config().magic != VIA_CONFIG_MAGIC || config().vi[0].state != VIA_VI_CONNECTED)
    spins = spins + 1;
  volatile uint32_t* interrupt = reinterpret_cast<volatile uint32_t*>(LANAI_REG_HOST_INTERRUPT);
  *interrupt = VIA_INTR_WORD(VIA_INTR_RECVQ_EMPTY, 0);
  *interrupt = VIA_INTR_WORD(VIA_INTR_DOORBELL_LOST, 0xFFFFu);
  *interrupt = VIA_INTR_WORD(VIA_INTR_BAD_PACKET, 0);
  for (;;)
    spins = spins + 1;
}
