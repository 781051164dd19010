// Test runner for the firmware loader; the cases live in the other files of
// this directory.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
