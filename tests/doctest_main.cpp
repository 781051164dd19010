// Entry point of every doctest test program, compiled once for them all:
// doctest supplies main() and the command-line options for selecting test
// cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
