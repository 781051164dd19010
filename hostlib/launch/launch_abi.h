/* How lanai-emu launch hands the copies of a program it loaded, one per
 * node, to the VIPL those copies are linked with: the VIPL shared library
 * exports LANAI_VIPL_LAUNCH_SYMBOL, a lanai_vipl_launch_fn. The caller passes
 * LANAI_VIPL_LAUNCH_ABI, so that a program linked with another version of
 * the library is refused rather than misread. */
#ifndef LANAI_VIPL_LAUNCH_ABI_H
#define LANAI_VIPL_LAUNCH_ABI_H

#include <stddef.h>

#define LANAI_VIPL_LAUNCH_ABI 1
#define LANAI_VIPL_LAUNCH_SYMBOL "lanai_vipl_launch"

#ifdef __cplusplus
extern "C" {
#endif

/* One node's copy of the program: its main, or failing that its via_main. */
typedef struct {
  int (*main)(int argc, char** argv, char** envp);
  int (*via_main)(int argc, char** argv);
} lanai_vipl_node_program;

/* argv: the program's path, the launcher's options, then "--" and the
 * program's arguments. name and description: how the command presents
 * itself in messages and --help. Returns the launcher's exit status. */
typedef int (*lanai_vipl_launch_fn)(int abi, int argc, char** argv,
                                    const lanai_vipl_node_program* programs, size_t count,
                                    const char* name, const char* description);

#ifdef __cplusplus
}
#endif

#endif
