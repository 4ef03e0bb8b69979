#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Nanoseconds `body` took.
@inline(never)
func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = nowNanoseconds()
    try body()
    return Double(nowNanoseconds() - start)
}

/// This thread's CPU time, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// CPU nanoseconds this thread spent in `body`: on a shared machine the time the thread waits
/// for a core does not count, only what it did (and what other work on the core cost it, such as
/// caches refilled after a switch).
@inline(never)
func cpuTimed(_ body: () throws -> Void) rethrows -> Double {
    let start = threadCPUNanoseconds()
    try body()
    return Double(threadCPUNanoseconds() - start)
}

func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Resident set size in bytes, from /proc/self/statm (its second field, in pages).
func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 256)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return 0 }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Progress and notes go to standard error, so standard output carries the table only.
func note(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
