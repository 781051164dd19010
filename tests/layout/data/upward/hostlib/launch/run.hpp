// Keeps to the order: the driver below it.
#include "driver/node.hpp"
