import Foundation

/// A value that several threads share, read and changed only while its lock is held: what
/// `Synchronization.Mutex` does, on every platform the package supports (`Mutex` needs macOS 15
/// and iOS 18). The package's modules use it; it is not part of the public API.
package final class Locked<Value>: @unchecked Sendable {
    // Inlinable, so a caller in another module gets a copy specialized for its value and
    // closure instead of a generic call that looks up type metadata on every use (the handle
    // table takes this lock several times in each open).
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; what `body` returns.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
