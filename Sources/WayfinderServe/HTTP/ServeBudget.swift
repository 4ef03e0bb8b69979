import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the front door lets connections have (`FrontDoor`, `DoorConnections`): how many at once,
/// in all and from one client, and how long one may take before it shows what it is. Every
/// connection costs the process three file descriptors (the one accepted, the front door's to the
/// server and the server's end of it), and those cut may take a moment to close (a quarter of the
/// cap more, `DoorConnections`), so the cap in all is taken from the process's limit on
/// descriptors with room left for everything else (the app's files, the state file, the watcher):
/// the limit can never be reached through the door, and the server's own accept loop never meets
/// it either.
public struct ServeBudget: Sendable, Equatable {
    /// Connections open at once, in all.
    public var connections: Int
    /// Connections open at once from one client (`PeerOwner`: the user at the other end of a
    /// loopback connection, else the peer's address).
    public var perClient: Int
    /// A connection must have sent its whole request head within this time of opening.
    public var headDeadline: Duration
    /// A connection whose request did not carry the token is closed this long after it opened,
    /// whatever it is doing (its refusal is written within it).
    public var unauthenticatedDeadline: Duration
    /// A connection that carried the token is closed once nothing has moved on it for this long
    /// while bytes wait to be written to the client (a page that stopped reading); a page's
    /// WebSocket that only waits for the next change stays open.
    public var idleDeadline: Duration

    public init(connections: Int, perClient: Int, headDeadline: Duration = .seconds(10),
                unauthenticatedDeadline: Duration = .seconds(15), idleDeadline: Duration = .seconds(60)) {
        self.connections = max(1, connections)
        self.perClient = max(1, min(perClient, self.connections))
        self.headDeadline = headDeadline
        self.unauthenticatedDeadline = unauthenticatedDeadline
        self.idleDeadline = idleDeadline
    }

    /// Descriptors kept for everything but connections.
    static let reserved = 64
    /// The cap in all is never more than this, however high the process's limit.
    static let mostConnections = 512
    /// One client's share: a browser opens about six connections to a server, and a WebSocket
    /// per page.
    static let standardPerClient = 64

    /// The standard budget for this process: the cap in all from its descriptor limit
    /// (`RLIMIT_NOFILE`'s soft limit: (limit - 64) / 4, at most 512, at least 4), 64 from one
    /// client, 10 s for a head, 15 s without the token, 60 s without progress.
    public static var standard: ServeBudget {
        var limit = rlimit()
        let descriptors = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
            ? Int(clamping: limit.rlim_cur) : 1024
        return forDescriptors(descriptors)
    }

    /// The standard budget for a process that may open `descriptors` files.
    static func forDescriptors(_ descriptors: Int) -> ServeBudget {
        let connections = min(mostConnections, max(4, (descriptors - reserved) / 4))
        return ServeBudget(connections: connections, perClient: min(standardPerClient, connections))
    }
}
