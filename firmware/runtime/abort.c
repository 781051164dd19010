/* abort(): what clang calls for __builtin_trap() and unreachable C++ paths.
 * There is no operating system to signal, so it stops the processor through
 * the exit register with the conventional "killed by SIGABRT" status. */
#include <lanai/register_map.h>

/* 128 + SIGABRT, the exit status a shell reports for an aborted program. */
#define LANAI_ABORT_EXIT_CODE 134u

_Noreturn void abort(void);

_Noreturn void abort(void) {
  lanai_mmio_write(LANAI_REG_EXIT, LANAI_ABORT_EXIT_CODE);
  /* The emulator stops at the exit write; real hardware would run on. */
  for (;;) {
  }
}
