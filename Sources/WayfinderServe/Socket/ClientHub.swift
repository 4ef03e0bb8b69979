import FlyingFox
import Wayfinder

/// The pages connected over WebSocket, each by the queue its messages go out on (`PageQueue`).
/// The session sends through it while it holds its own isolation, so every page gets the messages
/// in the order the session made them. A page whose queue is full (it has not read what was sent
/// to it) is let go: its queue ends and it is no longer sent anything, so a page that does not
/// read costs the server at most its queue's bytes.
public final class ClientHub: Sendable {
    /// 16 MiB waiting for one page: a few of the largest state messages.
    public static let standardPageQueueBytes = 16 * 1024 * 1024

    /// How many bytes may wait for one page.
    public let pageQueueBytes: Int
    private let clients = Locked<[Int: PageQueue]>([:])
    private let nextID = Locked(1)

    public init(pageQueueBytes: Int = ClientHub.standardPageQueueBytes) {
        self.pageQueueBytes = pageQueueBytes
    }

    /// A queue for a new page, to be added.
    func makeQueue() -> PageQueue { PageQueue(byteLimit: pageQueueBytes) }

    /// A new page; its id names it in `send` and `remove`.
    func add(_ queue: PageQueue) -> Int {
        let id = nextID.withLock { next in
            defer { next += 1 }
            return next
        }
        clients.withLock { $0[id] = queue }
        return id
    }

    /// The page went away: its stream ends.
    func remove(_ id: Int) {
        let gone = clients.withLock { $0.removeValue(forKey: id) }
        gone?.finish()
    }

    /// Sends `text` to page `id`; false when the page was let go for it (its queue was full).
    func send(_ text: String, to id: Int) -> Bool {
        guard let client = clients.withLock({ $0[id] }) else { return true }
        if client.push(text) { return true }
        remove(id)
        return false
    }

    /// Sends `text` to every page; the ids of those let go for it.
    func broadcast(_ text: String) -> [Int] {
        clients.withLock { Array($0) }.sorted { $0.key < $1.key }.compactMap { id, client in
            if client.push(text) { return nil }
            remove(id)
            return id
        }
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
