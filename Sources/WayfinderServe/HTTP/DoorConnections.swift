import Foundation
import Wayfinder
#if canImport(Glibc)
import Glibc
#endif

/// The connections the front door holds, kept within a `ServeBudget`: how many at once, in all and
/// from one client, and how long each may take at each step. A connection that breaks its budget is
/// cut: its sockets are shut down, which wakes whatever waits on them, and the task serving it
/// ends and closes them.
///
/// A new connection is always taken: when its client, or the door, holds as many as it may, the
/// oldest of that client's (or of the client holding the most) that has not shown the token goes
/// first, and only when every one of them has, the oldest. So connections opened by one client
/// cannot keep out a page that holds the token: they only push each other out, and a connection
/// that has shown the token outlives every one that has not.
final class DoorConnections: Sendable {
    let budget: ServeBudget
    private let state = Locked(Held())
    private let clock = ContinuousClock()

    private struct Held {
        var connections: [Int: DoorConnection] = [:]
        var next = 0
    }

    init(budget: ServeBudget) {
        self.budget = budget
    }

    /// How many connections are open (cut ones whose sockets are not closed yet included).
    var count: Int { state.withLock { $0.connections.count } }

    /// Whether a new connection can be taken now: fewer cut connections are still closing than
    /// the slack allows.
    var hasRoom: Bool { count < budget.connections + Self.slack(budget) }

    /// A connection just accepted from `client`, on descriptor `descriptor`; nil when no room can
    /// be made (too many of those cut are still closing), and it is to be closed at once.
    func admit(descriptor: Int32, client: String) -> DoorConnection? {
        let now = clock.now
        let (admitted, victim) = state.withLock { held -> (DoorConnection?, DoorConnection?) in
            let all = Array(held.connections.values)
            // Cut connections count until their task closes them; past this many more than the
            // cap, none is taken until some have.
            guard all.count < budget.connections + Self.slack(budget) else { return (nil, nil) }
            let live = all.filter { !$0.isCut }
            let mine = live.filter { $0.client == client }
            var victim: DoorConnection?
            if mine.count >= budget.perClient {
                victim = Self.firstToGo(among: mine)
            } else if live.count >= budget.connections {
                let busiest = Dictionary(grouping: live, by: \.client).max { $0.value.count < $1.value.count }?.value ?? []
                victim = Self.firstToGo(among: busiest)
            }
            held.next += 1
            let connection = DoorConnection(id: held.next, client: client, descriptor: descriptor, opened: now, owner: self)
            held.connections[connection.id] = connection
            return (connection, victim)
        }
        victim?.cut()
        return admitted
    }

    /// Makes room when the process is out of descriptors: the connection that would give way
    /// first to a new one goes. Whether one went.
    func shed() -> Bool {
        let victim = state.withLock { held -> DoorConnection? in
            let byClient = Dictionary(grouping: held.connections.values.filter { !$0.isCut }, by: \.client)
            guard let busiest = byClient.max(by: { $0.value.count < $1.value.count })?.value else { return nil }
            return Self.firstToGo(among: busiest)
        }
        victim?.cut()
        return victim != nil
    }

    /// How many cut connections may wait to be closed beyond the cap: a quarter of it, at least one.
    static func slack(_ budget: ServeBudget) -> Int { budget.connections / 4 + 1 }

    /// The one of `connections` that gives way first: the oldest that has not shown the token,
    /// else the oldest; never one already cut.
    private static func firstToGo(among connections: [DoorConnection]) -> DoorConnection? {
        let candidates = connections.filter { !$0.isCut }.sorted { $0.id < $1.id }
        return candidates.first { !$0.showedToken } ?? candidates.first
    }

    /// The connection closed its sockets: it no longer counts.
    fileprivate func closed(_ connection: DoorConnection) {
        _ = state.withLock { $0.connections.removeValue(forKey: connection.id) }
    }

    /// Cuts every connection past its deadline.
    func enforceDeadlines() {
        let now = clock.now
        let late = state.withLock { held in held.connections.values.filter { $0.isLate(at: now, budget: budget) } }
        for connection in late { connection.cut() }
    }

    /// Enforces the deadlines until cancelled, looking a few times within the shortest.
    func watch() async {
        let shortest = min(budget.headDeadline, budget.unauthenticatedDeadline, budget.idleDeadline)
        let tick = max(shortest / 4, .milliseconds(10))
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            enforceDeadlines()
        }
    }
}

/// One connection through the front door: its sockets' descriptors, and what it has shown so
/// far, which decides its deadline (`ServeBudget`).
final class DoorConnection: Sendable {
    enum Step: Equatable {
        /// Its request's head is not read yet.
        case head
        /// Its request did not carry the token.
        case withoutToken
        /// Its request carried the token.
        case withToken
    }

    let id: Int
    let client: String
    let opened: ContinuousClock.Instant
    private let owner: DoorConnections
    private let state: Locked<State>
    private let clock = ContinuousClock()

    private struct State {
        var descriptors: [Int32]
        var step = Step.head
        var cut = false
        var closed = false
        /// When bytes last moved either way.
        var moved: ContinuousClock.Instant
        /// Whether it is a page's WebSocket (then only a write that does not finish is idleness).
        var webSocket = false
        /// Since when a write to the client has waited, while one does.
        var writing: ContinuousClock.Instant?
    }

    fileprivate init(id: Int, client: String, descriptor: Int32, opened: ContinuousClock.Instant, owner: DoorConnections) {
        self.id = id
        self.client = client
        self.opened = opened
        self.owner = owner
        state = Locked(State(descriptors: [descriptor], moved: opened))
    }

    var isCut: Bool { state.withLock { $0.cut } }
    var showedToken: Bool { state.withLock { $0.step == .withToken } }

    /// Its request's head was read, with the token or without.
    func read(head carriesToken: Bool) {
        state.withLock { $0.step = carriesToken ? .withToken : .withoutToken }
    }

    /// The descriptor of its connection to the server, shut down and closed with it.
    func attach(_ descriptor: Int32) {
        let closed = state.withLock { current in
            if !current.cut && !current.closed { current.descriptors.append(descriptor) }
            return current.cut || current.closed
        }
        if closed { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    func becameWebSocket() { state.withLock { $0.webSocket = true } }

    /// Bytes moved (a read or a write finished).
    func moved() {
        let now = clock.now
        state.withLock { $0.moved = now }
    }

    /// Runs a write to the client, timing it.
    func writing<T>(_ body: () async throws -> T) async rethrows -> T {
        let now = clock.now
        state.withLock { $0.writing = now }
        defer {
            let end = clock.now
            state.withLock { current in
                current.writing = nil
                current.moved = end
            }
        }
        return try await body()
    }

    func isLate(at now: ContinuousClock.Instant, budget: ServeBudget) -> Bool {
        state.withLock { current in
            guard !current.cut && !current.closed else { return false }
            switch current.step {
            case .head: return now - opened > budget.headDeadline
            case .withoutToken: return now - opened > budget.unauthenticatedDeadline
            case .withToken:
                if let since = current.writing, now - since > budget.idleDeadline { return true }
                return !current.webSocket && now - current.moved > budget.idleDeadline
            }
        }
    }

    /// Shuts its sockets down: whatever waits on them wakes to find them ended. The descriptors
    /// stay open (and count) until `close` closes them, so none can be reused under it.
    func cut() {
        state.withLock { current in
            guard !current.cut && !current.closed else { return }
            current.cut = true
            for descriptor in current.descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes its sockets through `body`, which must close every descriptor it was given.
    func close(_ body: () -> Void) {
        state.withLock { current in
            guard !current.closed else { return }
            current.closed = true
            body()
        }
        owner.closed(self)
    }
}
