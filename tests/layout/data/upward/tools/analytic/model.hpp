// Reaches across its floor into hostlib, its own code and its C API.
#include "session.hpp"
#include "vipl.h"
