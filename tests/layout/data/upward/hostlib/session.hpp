// A launcher header: hostlib's own code.
