#include "CallgrindRegion.h"

// valgrind's own header: its client requests are no-ops when the program runs without valgrind.
// Without the header (valgrind not installed) the marks do nothing and the bench reports no counts.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int callgrind_region_available(void) { return 1; }

void callgrind_region_start(void) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_START_INSTRUMENTATION;
}

void callgrind_region_stop(const char *name) {
    CALLGRIND_STOP_INSTRUMENTATION;
    CALLGRIND_DUMP_STATS_AT(name);
}
#else
int callgrind_region_available(void) { return 0; }
void callgrind_region_start(void) {}
void callgrind_region_stop(const char *name) { (void)name; }
#endif
