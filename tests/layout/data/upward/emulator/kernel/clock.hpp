// Reaches up a floor (bench) and up the emulator's own order (host).
#include "bench/sweep/point.hpp"
#include "emulator/host/cluster.hpp"
#include <vector>
