/// Where the navigation state is kept between launches (docs/design.md, "Persistence"). The file
/// store is the default; an app may keep its state anywhere else.
public protocol StateStore {
    /// The saved state. A stored state that cannot be read is not left in the way: the store
    /// puts it aside and says so, and the app starts fresh.
    func load() -> StateLoad
    /// Replaces the saved state, all at once: a crash leaves the previous state or this one.
    func save(_ state: NavigationState) throws(StateStoreError)
    /// Forgets the saved state (persistence `none`).
    func remove() throws(StateStoreError)
}

/// What loading found.
public enum StateLoad: Equatable {
    /// Nothing saved yet.
    case missing
    /// The saved state.
    case loaded(NavigationState)
    /// Something was stored but could not be used (`reason`); it was moved to `keptAt` (nil when
    /// even that failed).
    case unreadable(reason: String, keptAt: String?)
}

/// A state that could not be written or removed.
public struct StateStoreError: Error, Equatable, CustomStringConvertible {
    /// The path that could not be written.
    public let path: String
    /// Why.
    public let reason: String

    /// An error for `path`, saying `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The path and the reason, in one sentence.
    public var description: String { "cannot write the navigation state to \(path): \(reason)" }
}
