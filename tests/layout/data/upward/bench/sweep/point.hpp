// Keeps to the floors (everything below bench), but names one header
// without its top folder.
#include "tools/analytic/model.hpp"
#include "kernel/clock.hpp"
#include "vipl.h"
