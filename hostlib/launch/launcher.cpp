// The process entry of every VIPL program. It lives in the library, alone
// in its object file, so a program only defines via_main(); a program (or
// test) with its own main() never pulls this object in.
#include "hostlib/launch/launch.hpp"
#include "vipl_emu.h"

int main(int argc, char** argv) { return lanai::vipl::launch(argc, argv, &via_main); }
