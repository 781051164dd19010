// Waiting for one host DMA request to complete, the device operation that
// takes more than a few register accesses.
#include "common/devices.h"

volatile uint32_t via_hdma_stray_completions;

namespace via {

uint32_t hdma_wait_for(uint32_t id, PollHook while_waiting) {
  for (;;) {
    const uint32_t done = hdma_pop_done();
    if ((done & LANAI_HDMA_DONE_VALID) == 0u) {
      if (while_waiting != nullptr)
        while_waiting();
      continue;
    }
    if ((done & LANAI_HDMA_ID_MASK) == id) {
      dma_fence();
      return LANAI_HDMA_DONE_STATUS(done);
    }
    // Completions come in service order, so another request finishing
    // first means it was left unwaited; its outcome has nobody to go to.
    via_hdma_stray_completions = via_hdma_stray_completions + 1u;
  }
}

} // namespace via
