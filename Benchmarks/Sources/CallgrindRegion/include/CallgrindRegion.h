// Marks the region of the benchmark whose instructions callgrind counts: the bench runs a workload
// under `valgrind --tool=callgrind --instr-atstart=no`, so the set-up (a 100,000-route table, say)
// runs uninstrumented and fast, and only the timed operations are counted. Each region ends in a
// dump of its own, so one process can count several contenders.
#ifndef CALLGRIND_REGION_H
#define CALLGRIND_REGION_H

/// 1 when the bench was built with valgrind's headers, so the marks below do something.
int callgrind_region_available(void);
/// Zeroes the counters and starts instrumenting.
void callgrind_region_start(void);
/// Stops instrumenting and writes the counts since the start as a dump named `name`.
void callgrind_region_stop(const char *name);

#endif
