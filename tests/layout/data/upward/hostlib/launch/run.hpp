// Keeps to the order: the driver below it.
#include "hostlib/driver/node.hpp"
