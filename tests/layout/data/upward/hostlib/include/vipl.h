// The VIPL C API: hostlib's floor, open to the floors above it.
