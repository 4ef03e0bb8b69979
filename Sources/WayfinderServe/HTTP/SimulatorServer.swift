import FlyingFox
import FlyingSocks
import Foundation
import Wayfinder

/// The HTTP server of `wayfinder serve`: listens on `address` (loopback unless told otherwise)
/// and `port` (0: one the system chooses) through the `FrontDoor`, which hands each connection
/// to FlyingFox answering through `ServeRouter`. FlyingFox itself listens on a Unix socket in a
/// directory of its own that only this user may enter, made at `start()` and removed at `stop()`.
public final class SimulatorServer: Sendable {
    public let session: ServeSession
    public let token: AccessToken
    public let address: String
    /// What connections may have (`ServeBudget`).
    public let budget: ServeBudget
    /// Where the server says what goes wrong outside any request (the process out of descriptors).
    private let report: @Sendable (String) -> Void
    private let socketAddress: any SocketAddress
    private let port: UInt16
    private let listening: ServeRouter.ListeningPort
    private let running = Locked<Running?>(nil)

    /// What runs while the server serves.
    private struct Running: Sendable {
        let server: HTTPServer
        let door: FrontDoor
        let directory: String
    }

    /// Why an address cannot be listened on.
    public struct AddressError: Error, CustomStringConvertible, LocalizedError {
        public let description: String
        public var errorDescription: String? { description }
    }

    public init(session: ServeSession, token: AccessToken = AccessToken(), address: String = "127.0.0.1", port: UInt16 = 0,
                budget: ServeBudget = .standard, report: @escaping @Sendable (String) -> Void = SimulatorServer.standardError) throws(AddressError) {
        self.session = session
        self.token = token
        self.address = address
        self.budget = budget
        self.report = report
        self.port = port
        listening = ServeRouter.ListeningPort()
        do {
            if LocalAuthority.isIPv4(address) {
                socketAddress = try sockaddr_in.inet(ip4: address, port: port)
            } else if LocalAuthority.isAddress(address, family: AF_INET6) {
                socketAddress = try sockaddr_in6.inet6(ip6: address, port: port)
            } else {
                throw AddressError(description: "'\(address)' is not an IP address (give one, such as 127.0.0.1 or ::1)")
            }
        } catch let error as AddressError {
            throw error
        } catch {
            throw AddressError(description: "'\(address)' cannot be listened on: \(error)")
        }
    }

    /// Starts listening; the port it listens on. The server runs until `stop()`. A port in use,
    /// or an address this machine does not have, is said at once.
    public func start() async throws -> Int {
        let directory = try Self.privateDirectory()
        let inner = sockaddr_un.unix(path: directory + "/http.sock")
        let router = ServeRouter(token: token, port: listening, session: session)
        let server = HTTPServer(config: HTTPServer.Configuration(address: inner, logger: .disabled), handler: router)
        do {
            // The library's accept loop ends at its first error (the process out of
            // descriptors): it only ever sees the front door's connections, which the budget
            // keeps well below the limit, but should it end all the same while serving, it is
            // said, not left silent.
            try await Self.listen(server) { [weak self, report] error in
                guard let self, self.running.withLock({ $0 != nil }) else { return }
                report("wayfinder serve: the HTTP server stopped (\(error.map { "\($0)" } ?? "no error")): "
                    + "every request is answered 503 from now on; stop wayfinder serve and start it again")
            }
            let door: FrontDoor
            do {
                door = try await FrontDoor(address: socketAddress, server: inner, token: token, budget: budget, report: report)
            } catch {
                throw AddressError(description: "cannot listen on \(address):\(port): \(error)")
            }
            listening.set(door.port)
            running.withLock { $0 = Running(server: server, door: door, directory: directory) }
            door.start()
            return door.port
        } catch {
            await server.stop()
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Writes a line to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// How many connections the front door holds (0 when it is not running).
    var doorConnections: Int { running.withLock { $0?.door.connections.count ?? 0 } }

    /// The address to open: host, port and token.
    public func url(port: Int) -> String {
        let host = address.contains(":") ? "[\(address)]" : address
        return "http://\(host):\(port)/?token=\(token.text)"
    }

    /// Stops listening, ends every page's connection, and removes the server's directory.
    public func stop() async {
        session.hub.closeAll()
        guard let running = running.withLock({ current in defer { current = nil }; return current }) else { return }
        await running.door.stop()
        await running.server.stop(timeout: 1)
        try? FileManager.default.removeItem(atPath: running.directory)
    }

    /// A new directory only this user may enter (mode 0700), in the temporary directory, or in
    /// /tmp when the temporary directory's path is too long for a Unix socket's address.
    private static func privateDirectory() throws -> String {
        var base = FileManager.default.temporaryDirectory.path
        if base.utf8.count > 60 { base = "/tmp" }
        var template = Array((base + "/wayfinder-serve-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw AddressError(description: "cannot make a directory for the server in \(base): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts FlyingFox and waits until it listens, or fails to; `stopped` is told when it stops.
    private static func listen(_ server: HTTPServer, stopped: @escaping @Sendable (Error?) -> Void) async throws {
        let outcome = FirstOutcome()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            outcome.wait(continuation)
            Task {
                do {
                    try await server.run()
                    outcome.resume(throwing: AddressError(description: "the server stopped before it listened"))
                    stopped(nil)
                } catch {
                    outcome.resume(throwing: error)
                    stopped(error)
                }
            }
            Task {
                do {
                    try await server.waitUntilListening(timeout: 10)
                    outcome.resume(throwing: nil)
                } catch {
                    outcome.resume(throwing: error)
                }
            }
        }
    }
}

/// A continuation resumed by the first of several racing tasks; the others are ignored.
private final class FirstOutcome: Sendable {
    private let continuation = Locked<CheckedContinuation<Void, Error>?>(nil)

    func wait(_ waiting: CheckedContinuation<Void, Error>) {
        continuation.withLock { $0 = waiting }
    }

    /// Resumes the waiter, with `error` or without: the first call only.
    func resume(throwing error: Error?) {
        let waiting = continuation.withLock { current in
            defer { current = nil }
            return current
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume() }
    }
}
