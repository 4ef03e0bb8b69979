// Filled in by the host layer.
