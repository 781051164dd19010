/* The process entry of a VIPL program that defines via_main() instead of
 * main(): alone in its object file, so a program with its own main()
 * never pulls it in. The shared VIPL's launcher runs via_main on every
 * node, as the static library's main() does. */
#include "vipl_emu.h"

int lanai_vipl_main(int argc, char** argv, int (*entry)(int, char**));

int main(int argc, char** argv) { return lanai_vipl_main(argc, argv, via_main); }
