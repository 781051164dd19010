/* LANai side of the differential test: runs every corpus case on every
 * input the host placed in SRAM and leaves the results for the host to read
 * back. The host finds the exchange buffers by their symbol names. */
#include "diff_cases.h"

/* Inputs are written by the host after loading and before running, so they
 * must not live in .bss, which start-up code clears: the section attribute
 * keeps these zero-initialised buffers in .data. */
__attribute__((section(".data"))) uint32_t diff_input_count;
__attribute__((section(".data"))) uint64_t diff_inputs[DIFF_MAX_INPUTS][4];

/* diff_outputs[case][input]; cleared at start-up and filled by main. */
uint64_t diff_outputs[DIFF_MAX_CASES][DIFF_MAX_INPUTS];

int main(void) {
  uint32_t inputs = diff_input_count;
  if (inputs > DIFF_MAX_INPUTS) /* never trust the count over the buffer */
    inputs = DIFF_MAX_INPUTS;
  uint32_t cases = diff_case_count;
  if (cases > DIFF_MAX_CASES)
    cases = DIFF_MAX_CASES;
  for (uint32_t c = 0u; c < cases; ++c) {
    diff_case_fn fn = diff_cases[c].fn;
    for (uint32_t i = 0u; i < inputs; ++i)
      diff_outputs[c][i] = fn(diff_inputs[i]);
  }
  return (int)diff_case_count;
}
