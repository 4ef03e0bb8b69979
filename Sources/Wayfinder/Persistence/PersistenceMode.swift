/// How much of the navigation tree is saved (Three20's TTNavigatorPersistenceMode).
public enum PersistenceMode: String, Sendable, CaseIterable {
    /// Nothing is saved, and saving removes an old state.
    case none
    /// The containers (tabs, modal stacks) and the first entry of each stack.
    case top
    /// The whole tree.
    case all
}
