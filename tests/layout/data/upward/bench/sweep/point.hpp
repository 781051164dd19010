// Keeps to the floors: everything below bench.
#include "analytic/model.hpp"
#include "kernel/clock.hpp"
#include "vipl.h"
