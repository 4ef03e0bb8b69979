import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// The HTTP server of `wayfinder serve`: listens on `address` (loopback unless told otherwise)
/// and `port` (0: one the system chooses), and answers through `ServeRouter`.
public final class SimulatorServer: Sendable {
    public let session: ServeSession
    public let token: AccessToken
    public let address: String
    private let server: HTTPServer
    private let listening: ServeRouter.ListeningPort

    /// Why an address cannot be listened on.
    public struct AddressError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(session: ServeSession, token: AccessToken = AccessToken(), address: String = "127.0.0.1", port: UInt16 = 0) throws(AddressError) {
        self.session = session
        self.token = token
        self.address = address
        listening = ServeRouter.ListeningPort()
        let socketAddress: any SocketAddress
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
        let router = ServeRouter(token: token, port: listening, session: session)
        server = HTTPServer(config: HTTPServer.Configuration(address: socketAddress, logger: .disabled), handler: router)
    }

    /// Starts listening; the port it listens on. The server runs until `stop()`. Whichever comes
    /// first answers: the server listening, or its failure to (a port in use, an address this
    /// machine does not have), so a failure is said at once.
    public func start() async throws -> Int {
        let server = server
        let outcome = FirstOutcome()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            outcome.wait(continuation)
            Task {
                do {
                    try await server.run()
                    outcome.resume(throwing: AddressError(description: "the server stopped before it listened"))
                } catch {
                    outcome.resume(throwing: error)
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
        guard let bound = await server.listeningAddress else { throw AddressError(description: "the server did not start listening") }
        let port: Int
        switch bound {
        case .ip4(_, let number), .ip6(_, let number): port = Int(number)
        case .unix: throw AddressError(description: "the server listens on a Unix socket, not a port")
        }
        listening.set(port)
        return port
    }

    /// The address to open: host, port and token.
    public func url(port: Int) -> String {
        let host = address.contains(":") ? "[\(address)]" : address
        return "http://\(host):\(port)/?token=\(token.text)"
    }

    public func stop() async {
        session.hub.closeAll()
        await server.stop(timeout: 1)
    }
}

/// A continuation resumed by the first of several racing tasks; the others are ignored.
private final class FirstOutcome: Sendable {
    private let continuation = Mutex<CheckedContinuation<Void, Error>?>(nil)

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
