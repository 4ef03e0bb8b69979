import FlyingFox
import FlyingSocks
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The door every connection comes in by. It listens on the address `serve` prints and hands
/// each connection on to the HTTP server (FlyingFox, listening on a Unix socket in a directory
/// only this user may enter), reading only what it must to keep two limits FlyingFox lacks:
///
/// - a request's head (`RequestHead`) may be at most 16 KiB: a longer one is answered 431 before
///   the server reads a line of it (the server would read a line without end into memory);
/// - once the server has switched the connection to the page's WebSocket, a frame, or a message
///   of several frames, may carry at most `ClientCommand.maximumLength` bytes (`FrameLimit`): a
///   frame whose header announces more ends the connection as soon as that header is read,
///   before any of its payload is (the server reads a frame whole before it looks at it, so a
///   frame announcing a gigabyte would be read into memory).
///
/// Each connection carries one request: once the server has answered it, the connection closes
/// (every answer says `Connection: close`), unless the answer switched it to a WebSocket. The
/// server itself decides everything else: what is answered, and how.
final class FrontDoor: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: AsyncSocket
    private let server: sockaddr_un
    private let pool: any AsyncSocketPool
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// How much is read from a socket at once.
    static let chunk = 16 * 1024

    /// Listens on `address` for connections to hand to the server at `server`. Throws when the
    /// address cannot be listened on (a port in use, an address this machine does not have).
    init(address: some SocketAddress, server: sockaddr_un) async throws {
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
    }

    /// Starts taking connections; they are served until `stop()`.
    func start() {
        let (listener, pool) = (listener, pool)
        let task = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { try? await pool.run() }
                do {
                    for try await client in listener.sockets {
                        group.addTask { await self.pass(client) }
                    }
                } catch {
                    // Stopped: the listening socket is closed below.
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

    // MARK: One connection

    /// Hands one connection to the server, keeping the limits.
    private func pass(_ client: AsyncSocket) async {
        defer { try? client.close() }
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
                read += more
            case .notHTTP:
                return
            case .tooLong:
                try? await client.write(PageResponse.refusedBytes(.requestHeaderFieldsTooLarge,
                                                                  "the request's head is longer than \(RequestHead.limit) bytes"))
                return
            case .unmeasuredBody:
                try? await client.write(PageResponse.refusedBytes(.lengthRequired,
                                                                  "a request body must come with a Content-Length (only GET is served here)"))
                return
            }
        }
        guard let server = try? await AsyncSocket.connected(to: self.server, pool: pool) else { return }
        defer { try? server.close() }
        var rest = Array(read[used...])
        do {
            try await server.write(Data(head.bytes))
            var bodyLeft = head.bodyLength
            while bodyLeft > 0 {
                if rest.isEmpty { rest = try await client.read(atMost: min(bodyLeft, Self.chunk)) }
                let part = rest.prefix(bodyLeft)
                try await server.write(Data(part))
                bodyLeft -= part.count
                rest.removeFirst(part.count)
            }
            // The answer's status line says whether the connection is now a WebSocket.
            var answer: [UInt8] = []
            while !answer.contains(0x0A) {
                guard answer.count < RequestHead.limit else { return }
                answer += try await server.read(atMost: Self.chunk)
            }
            try await client.write(Data(answer))
            if answer.starts(with: Array("HTTP/1.1 101 ".utf8)) {
                await carryWebSocket(client: client, server: server, first: rest)
            } else {
                // Nothing more goes to the server: it answers, sees the end, and closes.
                shutdown(server.socket.file.rawValue, Int32(SHUT_WR))
                try await copy(from: server, to: client)
            }
        } catch {
            // Either side went away, or the server is stopping: the connection ends.
        }
    }

    /// Both directions of a WebSocket, until either side ends it or a frame breaks the limit:
    /// what the page sends passes through `FrameLimit`, starting with `first` (what it sent
    /// right after its request).
    private func carryWebSocket(client: AsyncSocket, server: AsyncSocket, first: [UInt8]) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await self.copy(from: server, to: client) }
            group.addTask {
                var frames = FrameLimit(limit: ClientCommand.maximumLength)
                var bytes = first
                do {
                    while true {
                        if !bytes.isEmpty { try await server.write(Data(try frames.admit(bytes))) }
                        bytes = try await client.read(atMost: Self.chunk)
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

    /// Copies everything `source` sends to `destination` until `source` ends.
    private func copy(from source: AsyncSocket, to destination: AsyncSocket) async throws {
        while true {
            let bytes = try await source.read(atMost: Self.chunk)
            try await destination.write(Data(bytes))
        }
    }
}
