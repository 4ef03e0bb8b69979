// What the C allocator has handed out and not taken back, for the memory bench: unlike the
// resident size, it does not hide a table's allocations in pages an earlier step freed.
#ifndef HEAP_USAGE_H
#define HEAP_USAGE_H

#include <stddef.h>

/// Bytes in use in the allocator's heap and in its mapped blocks (glibc's mallinfo2), chunk
/// overheads included; 0 where the allocator cannot tell.
size_t heap_usage_bytes(void);

#endif
