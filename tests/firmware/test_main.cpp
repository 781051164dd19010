// Entry point of the native firmware-runtime tests; the cases live in the
// other test_*.cpp files of this directory.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
