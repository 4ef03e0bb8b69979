import FlyingFox
import Synchronization

/// The pages connected over WebSocket, each by the stream its messages go out on. The session
/// sends through it while it holds its own isolation, so every page gets the messages in the
/// order the session made them.
public final class ClientHub: Sendable {
    typealias Continuation = AsyncStream<WSMessage>.Continuation

    private let clients = Mutex<[Int: AsyncStream<WSMessage>.Continuation]>([:])
    private let nextID = Mutex(1)

    public init() {}

    /// A new page; its id names it in `send` and `remove`.
    func add(_ continuation: AsyncStream<WSMessage>.Continuation) -> Int {
        let id = nextID.withLock { next in
            defer { next += 1 }
            return next
        }
        clients.withLock { $0[id] = continuation }
        return id
    }

    /// The page went away: its stream ends.
    func remove(_ id: Int) {
        let gone = clients.withLock { $0.removeValue(forKey: id) }
        gone?.finish()
    }

    func send(_ text: String, to id: Int) {
        let client = clients.withLock { $0[id] }
        client?.yield(.text(text))
    }

    func broadcast(_ text: String) {
        for client in clients.withLock({ Array($0.values) }) { client.yield(.text(text)) }
    }

    /// How many pages are connected.
    public var count: Int { clients.withLock { $0.count } }

    /// Ends every page's stream (the server is stopping).
    func closeAll() {
        let all = clients.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in all { client.finish() }
    }
}
