/// A state store that keeps a state it will not restore out of the way without losing it, and
/// remembers a launch under way across the end of the process (docs/persistence.md, "A state that
/// stops every launch"). `FileStateStore` is one; with a store that is not, launches are not
/// guarded and a state set aside is simply not restored (the next save replaces it).
public protocol GuardedStateStore: StateStore {
    /// Keeps the saved state aside (it is no longer what `load` finds): where it went.
    func setAside(_ reason: SetAsideReason) throws(StateStoreError) -> String
    /// The mark of the launches under way, nil when there is none.
    func launchMark() throws(StateStoreError) -> LaunchMark?
    /// Writes the mark so that it outlives the process.
    func writeLaunchMark(_ mark: LaunchMark) throws(StateStoreError)
    /// Removes the mark (nothing when there is none).
    func removeLaunchMark() throws(StateStoreError)
    /// Makes this process the state's one owner for as long as the answer lives: another process
    /// claiming it waits, then fails naming it. Nil when the store has no owners.
    func claim() throws(StateStoreError) -> StateClaim?
}

extension GuardedStateStore {
    public func claim() throws(StateStoreError) -> StateClaim? { nil }
}
