#if canImport(Darwin)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// A value that several threads share, read and changed only while its lock is held: what
/// `Synchronization.Mutex` does, on every platform the package supports (`Mutex` needs macOS 15
/// and iOS 18). The package's modules use it; it is not part of the public API.
///
/// The lock is the system's own (`os_unfair_lock`, a pthread mutex elsewhere), called directly:
/// the handle table takes it several times in each open, where a lock object's method call and a
/// run-time exclusivity check on the value would cost more than the locking itself. (A `Mutex`
/// stored here would cost more still: reaching it in a generic class looks its type up at run
/// time, where a pointer's place is known.)
package final class Locked<Value>: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    // Inlinable, so a caller in another module gets a copy specialized for its value and
    // closure instead of a generic call that looks up type metadata on every use. The lock lives
    // at a fixed address of its own, as the system's locks must.
    @usableFromInline let primitive: UnsafeMutablePointer<Primitive>
    // Only ever reached with the lock held, so no two accesses overlap.
    @usableFromInline @exclusivity(unchecked) var value: Value

    package init(_ value: sending Value) {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
        #endif
        self.value = value
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Runs `body` with the value while holding the lock; what `body` returns.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        defer { os_unfair_lock_unlock(primitive) }
        #else
        pthread_mutex_lock(primitive)
        defer { pthread_mutex_unlock(primitive) }
        #endif
        return try body(&value)
    }
}
