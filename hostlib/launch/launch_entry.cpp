// The VIPL shared library's side of lanai-emu launch: the program copies
// the command loaded arrive here and run on the emulated cluster this
// library holds.
#include <cstdio>
#include <exception>
#include <vector>

#include "hostlib/launch/launch.hpp"
#include "hostlib/launch/launch_abi.h"

extern "C" __attribute__((visibility("default"))) int
lanai_vipl_launch(int abi, int argc, char** argv, const lanai_vipl_node_program* programs,
                  size_t count, const char* name, const char* description) {
  if (abi != LANAI_VIPL_LAUNCH_ABI) {
    std::fprintf(stderr,
                 "%s: the program is linked with a VIPL of another version (launch interface %d, "
                 "this one speaks %d): rebuild it against this lanai-emu\n",
                 name ? name : "lanai-emu launch", abi, LANAI_VIPL_LAUNCH_ABI);
    return 1;
  }
  try {
    std::vector<lanai::vipl::NodeProgram> nodes;
    for (size_t i = 0; i < count; ++i)
      nodes.push_back({programs[i].main, programs[i].via_main});
    return lanai::vipl::launch_nodes(argc, argv, nodes,
                                     {name ? name : "", description ? description : ""});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name ? name : "lanai-emu launch", e.what());
    return 1;
  }
}

// The shared VIPL's counterpart of the static library's main(): a program
// that defines via_main gets its main() from the process library
// (via_main_entry.c), which comes here.
extern "C" __attribute__((visibility("default"))) int lanai_vipl_main(int argc, char** argv,
                                                                      int (*entry)(int, char**)) {
  return lanai::vipl::launch(argc, argv, entry);
}
