import Wayfinder

/// The events of a session, newest last, with the tree as it was after each change: what time
/// travel shows (the phone and the tree then) and restores (the saved state then, handed to the
/// navigator as a relaunch hands it the state file). Bounded by count and by bytes: past `limit`
/// events, or past `byteLimit` bytes of events and trees (as `ValueSize` counts them), the oldest
/// go, and their trees with them; the newest event and the tree in force at the oldest kept always
/// stay, however large.
struct EventLog {
    /// The tree after an event, in the three forms the page and the navigator need.
    struct Snapshot {
        let screen: Value
        let tree: Value
        /// Nil when the app was not loaded (nothing to restore).
        let state: NavigationState?

        /// What it holds, as `ValueSize` counts it.
        var bytes: Int {
            ValueSize.bytes(of: screen) + ValueSize.bytes(of: tree) + (state.map { ValueSize.bytes(of: $0.document) } ?? 0)
        }
    }

    static let limit = 500
    /// 64 MiB: a few dozen screens of the largest a test app draws, and no more memory than
    /// the app's own Lua state may take.
    static let standardByteLimit = 64 * 1024 * 1024

    let byteLimit: Int
    private(set) var events: [SessionEvent] = []
    /// Each event's size, in the order of `events`.
    private var eventBytes: [Int] = []
    /// By the id of the event that left the tree so, with its size.
    private var snapshots: [Int: (snapshot: Snapshot, bytes: Int)] = [:]
    private var nextID = 1
    /// What the events and trees kept hold, as `ValueSize` counts it.
    private(set) var bytes = 0

    init(byteLimit: Int = Self.standardByteLimit) {
        self.byteLimit = byteLimit
    }

    /// A log of events read from a file (`EventLogFile`), oldest first with increasing ids, each
    /// with its own tree or none; the limits apply as when they happened.
    init(imported: [(SessionEvent, Snapshot?)], byteLimit: Int = Self.standardByteLimit) {
        self.byteLimit = byteLimit
        for (event, snapshot) in imported {
            nextID = event.id
            _ = append({ _ in event }, snapshot: snapshot)
        }
    }

    /// The tree kept for event `id` itself (not one carried from before it).
    func ownSnapshot(at id: Int) -> Snapshot? { snapshots[id]?.snapshot }

    /// Adds an event, with the tree after it when it changed the tree (or is the first).
    mutating func append(_ make: (Int) -> SessionEvent, snapshot: Snapshot?) -> SessionEvent {
        let event = make(nextID)
        nextID += 1
        events.append(event)
        let size = ValueSize.bytes(of: event.json)
        eventBytes.append(size)
        bytes += size
        if let snapshot {
            let size = snapshot.bytes
            snapshots[event.id] = (snapshot, size)
            bytes += size
        }
        while events.count > Self.limit || (bytes > byteLimit && events.count > 1) {
            dropOldest()
        }
        return event
    }

    private mutating func dropOldest() {
        events.removeFirst()
        eventBytes.removeFirst()
        // The oldest tree still needed is the one in force at the oldest event kept.
        let first = events[0].id
        if snapshots[first] == nil, let carried = latestEntry(atOrBefore: first) { snapshots[first] = carried }
        snapshots = snapshots.filter { $0.key >= first }
        bytes = eventBytes.reduce(0, +) + snapshots.values.reduce(0) { $0 + $1.bytes }
    }

    /// The tree as it was right after event `id`: the latest snapshot at or before it. Nil for
    /// an id never given, or one that has left the log.
    func snapshot(at id: Int) -> Snapshot? {
        guard let first = events.first?.id, id >= first, id < nextID else { return nil }
        return latestEntry(atOrBefore: id)?.snapshot
    }

    private func latestEntry(atOrBefore id: Int) -> (snapshot: Snapshot, bytes: Int)? {
        snapshots.filter { $0.key <= id }.max { $0.key < $1.key }?.value
    }

    var lastID: Int? { events.last?.id }
}
