// Entry point of the queueing twin tests; doctest supplies main() and the
// command-line options for selecting test cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
