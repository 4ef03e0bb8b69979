import Wayfinder

/// The events of a session, newest last, with the tree as it was after each change: what time
/// travel shows (the phone and the tree then) and restores (the saved state then, handed to the
/// navigator as a relaunch hands it the state file). Bounded: past `limit` events the oldest go,
/// and their trees with them.
struct EventLog {
    /// The tree after an event, in the three forms the page and the navigator need.
    struct Snapshot {
        let screen: Value
        let tree: Value
        /// Nil when the app was not loaded (nothing to restore).
        let state: NavigationState?
    }

    static let limit = 500

    private(set) var events: [SessionEvent] = []
    /// By the id of the event that left the tree so.
    private var snapshots: [Int: Snapshot] = [:]
    private var nextID = 1

    /// Adds an event, with the tree after it when it changed the tree (or is the first).
    mutating func append(_ make: (Int) -> SessionEvent, snapshot: Snapshot?) -> SessionEvent {
        let event = make(nextID)
        nextID += 1
        events.append(event)
        if let snapshot { snapshots[event.id] = snapshot }
        if events.count > Self.limit {
            events.removeFirst()
            // The oldest tree still needed is the one in force at the oldest event kept.
            let first = events[0].id
            if snapshots[first] == nil, let carried = latest(atOrBefore: first) { snapshots[first] = carried }
            snapshots = snapshots.filter { $0.key >= first }
        }
        return event
    }

    /// The tree as it was right after event `id`: the latest snapshot at or before it. Nil for
    /// an id never given, or one that has left the log.
    func snapshot(at id: Int) -> Snapshot? {
        guard let first = events.first?.id, id >= first, id < nextID else { return nil }
        return latest(atOrBefore: id)
    }

    private func latest(atOrBefore id: Int) -> Snapshot? {
        snapshots.filter { $0.key <= id }.max { $0.key < $1.key }?.value
    }

    var lastID: Int? { events.last?.id }
}
