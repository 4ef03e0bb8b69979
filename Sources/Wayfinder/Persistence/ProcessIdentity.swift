import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process as the state's files remember it: its id, and where the system tells it, when it
/// started (Linux: `/proc/<pid>/stat`, field 22, in clock ticks since boot). A process id alone
/// is reused once its process ends; with the start time, a file another process left is never
/// taken for a live one's.
public struct ProcessIdentity: Equatable, Sendable {
    /// The process id.
    public let pid: Int32
    /// Nil where the system does not say.
    public let started: Int64?

    /// The process with id `pid` that started at `started` (nil when unknown).
    public init(pid: Int32, started: Int64?) {
        self.pid = pid
        self.started = started
    }

    /// This process.
    public static let current = ProcessIdentity(pid: getpid(), started: startTime(of: getpid()))

    /// Whether the process is still running: a process with that id exists and, when both start
    /// times are known, started when this one says.
    public var isRunning: Bool {
        guard pid > 0 else { return false }
        if pid == getpid() { return started == nil || started == Self.current.started }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let started, let now = Self.startTime(of: pid) else { return true }
        return now == started
    }

    /// Field 22 of `/proc/<pid>/stat`, nil where there is no such file. The second field (the
    /// command's name, in parentheses) may hold spaces and parentheses itself: fields are counted
    /// from the last `)`.
    static func startTime(of pid: pid_t) -> Int64? {
        #if os(Linux)
        let file = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0, let close = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        // After the name: field 3 (the state) is the first, so field 22 is the 20th.
        guard fields.count >= 20 else { return nil }
        return Int64(String(decoding: fields[19], as: UTF8.self))
        #else
        return nil
        #endif
    }
}
