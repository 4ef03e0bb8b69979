/// What an observer of a `Navigator` receives: one committed change to the tree, and the tree
/// right after it (docs/events.md). One operation that changes several things (an open that
/// selects another tab, pops it back and pushes) sends one event per change, in order, each
/// with the tree as it stands after that change; the last one's tree is the navigator's tree.
public struct NavigationEvent: Sendable, Hashable {
    /// What changed.
    public var change: NavigationChange
    /// The tree after `change` (and the changes before it in its batch).
    public var tree: NavigationSnapshot

    /// An event as a test or a relay of events builds one.
    public init(change: NavigationChange, tree: NavigationSnapshot) {
        self.change = change
        self.tree = tree
    }
}
