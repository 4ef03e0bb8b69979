import FlyingFox
import FlyingSocks
import Foundation
import Wayfinder
#if canImport(Glibc)
import Glibc
#endif

/// The door every connection comes in by. It listens on the address `serve` prints and hands
/// each connection on to the HTTP server (FlyingFox, listening on a Unix socket in a directory
/// only this user may enter), reading only what it must to keep the limits FlyingFox lacks:
///
/// - a request's head (`RequestHead`) may be at most 16 KiB: a longer one is answered 431 before
///   the server reads a line of it (the server would read a line without end into memory);
/// - once the server has switched the connection to the page's WebSocket, a frame, or a message
///   of several frames, may carry at most `ClientCommand.maximumLength` bytes (`FrameLimit`): a
///   frame whose header announces more ends the connection as soon as that header is read,
///   before any of its payload is (the server reads a frame whole before it looks at it, so a
///   frame announcing a gigabyte would be read into memory);
/// - a request's target must be a path and its `Host` header one (`RequestHead`): else 400;
/// - connections are kept within a `ServeBudget` (`DoorConnections`): so many at once, in all and
///   from one client, each with its deadlines (a head, a request without the token, a page that
///   stopped reading).
///
/// Each connection carries one request: once the server has answered it, the connection closes
/// (every answer says `Connection: close`), unless the answer switched it to a WebSocket. The
/// server itself decides everything else: what is answered, and how.
///
/// The door never stops taking connections while it runs: when the process is out of file
/// descriptors, it says so once, lets the connection that gives way first go, and tries again a
/// moment later.
final class FrontDoor: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: AsyncSocket
    private let server: sockaddr_un
    private let pool: any AsyncSocketPool
    private let token: AccessToken
    let connections: DoorConnections
    private let running = Locked<Task<Void, Never>?>(nil)
    private let report: @Sendable (String) -> Void

    /// How much is read from a socket at once.
    static let chunk = 16 * 1024

    /// Listens on `address` for connections to hand to the server at `server`, within `budget`;
    /// those whose request carries `token` outlive those whose request does not. What the door
    /// has to say (the process out of descriptors) goes to `report`. Throws when the address
    /// cannot be listened on (a port in use, an address this machine does not have).
    init(address: some SocketAddress, server: sockaddr_un, token: AccessToken, budget: ServeBudget,
         report: @escaping @Sendable (String) -> Void) async throws {
        let pool = HTTPServer.defaultPool()
        let socket = try Socket(domain: Int32(type(of: address).family), type: .stream)
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: address)
            try socket.listen()
            switch try socket.sockname() {
            case .ip4(_, let number), .ip6(_, let number): port = Int(number)
            case .unix: throw SocketError.unsupportedAddress
            }
            try await pool.prepare()
            listener = try AsyncSocket(socket: socket, pool: pool)
        } catch {
            try? socket.close()
            throw error
        }
        self.server = server
        self.pool = pool
        self.token = token
        self.report = report
        connections = DoorConnections(budget: budget)
    }

    /// Starts taking connections; they are served until `stop()`.
    func start() {
        let (listener, pool, connections) = (listener, pool, connections)
        let task = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { try? await pool.run() }
                group.addTask { await connections.watch() }
                await self.accept(from: listener) { client in
                    // Counted before the next is taken, so no more are open than the budget says.
                    guard let connection = connections.admit(descriptor: client.socket.file.rawValue, client: PeerOwner.client(of: client.socket.file.rawValue)) else {
                        try? client.close()
                        return
                    }
                    group.addTask { await self.pass(client, connection) }
                }
                group.cancelAll()
            }
            try? listener.close()
        }
        running.withLock { $0 = task }
    }

    /// Stops taking connections and ends those under way.
    func stop() async {
        guard let task = running.withLock({ current in defer { current = nil }; return current }) else { return }
        task.cancel()
        await task.value
    }

    /// Takes connections until cancelled or the listening socket is closed. Out of descriptors
    /// (the process's, or the system's), it says so once, lets a connection go, and waits a moment
    /// (longer each time, up to a second) before it tries again; a connection that went away
    /// before it was taken is passed over.
    private func accept(from listener: AsyncSocket, _ serve: (AsyncSocket) -> Void) async {
        var pause = Duration.milliseconds(10)
        var told = false
        while !Task.isCancelled {
            do {
                // Too many cut connections still closing: new ones wait in the listening
                // socket's queue until there is room, rather than being turned away.
                while !connections.hasRoom { try await Task.sleep(for: .milliseconds(5)) }
                serve(try await listener.accept())
                pause = .milliseconds(10)
            } catch SocketError.failed(_, let code, _) where code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                if !told {
                    told = true
                    report("wayfinder serve: out of file descriptors (\(String(cString: strerror(code)))): "
                        + "closing connections that have not shown the token, and taking new ones again as soon as there is room")
                }
                _ = connections.shed()
                do { try await Task.sleep(for: pause) } catch { return }
                pause = min(pause * 2, .seconds(1))
            } catch SocketError.failed(_, let code, _) where code == ECONNABORTED || code == EINTR || code == EPROTO || code == EPERM {
                continue
            } catch {
                // Stopped: the listening socket is closed.
                return
            }
        }
    }

    // MARK: One connection

    /// Hands one connection to the server, keeping the limits.
    private func pass(_ client: AsyncSocket, _ connection: DoorConnection) async {
        var server: AsyncSocket?
        defer { connection.close { try? client.close(); try? server?.close() } }
        var read: [UInt8] = []
        let head: RequestHead
        let used: Int
        reading: while true {
            switch RequestHead.read(read) {
            case .head(let found, let length):
                (head, used) = (found, length)
                break reading
            case .incomplete:
                guard let more = try? await client.read(atMost: Self.chunk) else { return }
                connection.moved()
                read += more
            case .notHTTP:
                return
            case .tooLong:
                connection.read(head: false)
                try? await client.write(PageResponse.refusedBytes(.requestHeaderFieldsTooLarge,
                                                                  "the request's head is longer than \(RequestHead.limit) bytes"))
                return
            case .unmeasuredBody:
                connection.read(head: false)
                try? await client.write(PageResponse.refusedBytes(.lengthRequired,
                                                                  "a request body must come with a Content-Length (only GET is served here)"))
                return
            case .malformed(let reason):
                connection.read(head: false)
                try? await client.write(PageResponse.refusedBytes(.badRequest, reason))
                return
            }
        }
        connection.read(head: head.carries(token))
        guard let inner = try? await AsyncSocket.connected(to: self.server, pool: pool) else {
            try? await client.write(PageResponse.refusedBytes(.serviceUnavailable, "the server cannot take the request now: try again"))
            return
        }
        server = inner
        connection.attach(inner.socket.file.rawValue)
        var rest = Array(read[used...])
        do {
            try await inner.write(Data(head.bytes))
            var bodyLeft = head.bodyLength
            while bodyLeft > 0 {
                if rest.isEmpty {
                    rest = try await client.read(atMost: min(bodyLeft, Self.chunk))
                    connection.moved()
                }
                let part = rest.prefix(bodyLeft)
                try await inner.write(Data(part))
                bodyLeft -= part.count
                rest.removeFirst(part.count)
            }
            // The answer's status line says whether the connection is now a WebSocket.
            var answer: [UInt8] = []
            while !answer.contains(0x0A) {
                guard answer.count < RequestHead.limit else { return }
                answer += try await inner.read(atMost: Self.chunk)
            }
            try await connection.writing { try await client.write(Data(answer)) }
            if answer.starts(with: Array("HTTP/1.1 101 ".utf8)) {
                connection.becameWebSocket()
                await carryWebSocket(client: client, server: inner, first: rest, connection: connection)
            } else {
                // Nothing more goes to the server: it answers, sees the end, and closes.
                shutdown(inner.socket.file.rawValue, Int32(SHUT_WR))
                try await copy(from: inner, to: client, connection: connection)
            }
        } catch {
            // Either side went away, the connection was cut, or the server is stopping: the
            // connection ends.
        }
    }

    /// Both directions of a WebSocket, until either side ends it or a frame breaks the limit:
    /// what the page sends passes through `FrameLimit`, starting with `first` (what it sent
    /// right after its request).
    private func carryWebSocket(client: AsyncSocket, server: AsyncSocket, first: [UInt8], connection: DoorConnection) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await self.copy(from: server, to: client, connection: connection) }
            group.addTask {
                var frames = FrameLimit(limit: ClientCommand.maximumLength)
                var bytes = first
                do {
                    while true {
                        if !bytes.isEmpty { try await server.write(Data(try frames.admit(bytes))) }
                        bytes = try await client.read(atMost: Self.chunk)
                        connection.moved()
                    }
                } catch {
                    // The page went away, the server did, or a frame was refused: the
                    // connection ends, and what was refused is never read.
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Copies everything the server sends to the client until the server ends; each write to
    /// the client is timed (a client that stops reading is cut).
    private func copy(from source: AsyncSocket, to destination: AsyncSocket, connection: DoorConnection) async throws {
        while true {
            let bytes = try await source.read(atMost: Self.chunk)
            connection.moved()
            try await connection.writing { try await destination.write(Data(bytes)) }
        }
    }
}
