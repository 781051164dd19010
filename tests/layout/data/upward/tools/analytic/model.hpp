// Reaches across its floor into hostlib, its own code and its C API.
#include "hostlib/session.hpp"
#include "vipl.h"
