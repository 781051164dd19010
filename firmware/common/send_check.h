// Whether a VI can send a fetched send descriptor: the checks every
// firmware makes before gathering any data.
#pragma once

#include <stdint.h>

#include "common/descriptor.h"

namespace via {

// Error bits (VIP_STATUS_*) for a descriptor `vi` cannot send, or 0.
uint32_t check_send(uint32_t vi, const Descriptor& descriptor);

} // namespace via
