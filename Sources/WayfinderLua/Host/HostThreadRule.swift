import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's threading rule (docs/embedding.md, "Threads"): a host and its Lua state belong to
/// one thread or actor at a time, so a call may not begin on a thread while another thread is in
/// one. The host remembers the thread of the call under way; a call from another thread then is
/// refused (it throws ``HostThreadError``, or, where the member cannot throw, stops the program
/// with the rule's text) before it touches anything. Calls back from the same thread (a script's
/// print, an observer reading the tree) are the call under way, and go on.
final class HostOccupancy: @unchecked Sendable {
    private let guarding = NSLock()
    private var occupant: pthread_t?
    private var depth = 0

    /// Enters for the calling thread; false when another thread is in a call.
    func enter() -> Bool {
        guarding.lock()
        defer { guarding.unlock() }
        let me = pthread_self()
        if let occupant, pthread_equal(occupant, me) == 0 { return false }
        occupant = me
        depth += 1
        return true
    }

    func leave() {
        guarding.lock()
        defer { guarding.unlock() }
        depth -= 1
        if depth == 0 { occupant = nil }
    }
}

/// A call into a host from a thread while another thread was in one: refused, nothing done.
public struct HostThreadError: Error, CustomStringConvertible, Sendable {
    /// What was asked.
    public let operation: String

    /// The refusal of `operation`.
    public init(operation: String) {
        self.operation = operation
    }

    /// What was refused, and the rule that refused it.
    public var description: String {
        "cannot \(operation): the host is in a call on another thread (a WayfinderHost belongs to one thread or actor at a time; "
            + "calls from two threads at once are refused)"
    }
}

extension WayfinderHost {
    /// Runs `body` as the host's one call under way, refusing a call from another thread then.
    func exclusively<T, E: Error>(_ operation: String, refusing: (HostThreadError) -> E, _ body: () throws(E) -> T) throws(E) -> T {
        guard occupancy.enter() else { throw refusing(HostThreadError(operation: operation)) }
        defer { occupancy.leave() }
        return try body()
    }

    func exclusively<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        try exclusively(operation, refusing: { $0 as any Error }, body)
    }

    /// For members that cannot throw: a call from another thread while one runs stops the program
    /// with the rule, rather than racing it in the Lua state.
    func exclusivelyOrStop<T>(_ operation: String, _ body: () -> T) -> T {
        guard occupancy.enter() else { preconditionFailure(HostThreadError(operation: operation).description) }
        defer { occupancy.leave() }
        return body()
    }

    /// The refusal as a script's error, for members whose errors are typed so.
    static func scriptRefusal(_ refusal: HostThreadError) -> ScriptError {
        ScriptError(kind: .runtime, message: refusal.description)
    }
}
