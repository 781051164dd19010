// Reaches up hostlib's own order (launch stands on the driver).
#include "hostlib/launch/run.hpp"
