// Reaches up a floor (bench) and up the emulator's own order (host).
#include "sweep/point.hpp"
#include "host/cluster.hpp"
#include <vector>
