import FlyingFox
import Wayfinder

/// Answers every request of `wayfinder serve`: the checks first (`RequestCheck`), then the
/// simulator page at `/`, its assets under `/assets/`, the WebSocket at `/ws`; anything else is
/// 404. Every refusal is an answer with a 4xx status and the reason; none reaches the app.
public struct ServeRouter: HTTPHandler {
    let token: AccessToken
    let port: ListeningPort
    let session: ServeSession

    /// The port the server listens on, known once it listens (asked for port 0, the system
    /// chooses): until then every request is refused.
    final class ListeningPort: Sendable {
        private let value = Locked<Int?>(nil)
        init(_ port: Int? = nil) { value.withLock { $0 = port } }
        var port: Int? { value.withLock { $0 } }
        func set(_ port: Int) { value.withLock { $0 = port } }
    }

    public init(token: AccessToken, port: Int, session: ServeSession) {
        self.init(token: token, port: ListeningPort(port), session: session)
    }

    init(token: AccessToken, port: ListeningPort, session: ServeSession) {
        self.token = token
        self.port = port
        self.session = session
    }

    public func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let listening = port.port else { return PageResponse.refused(.serviceUnavailable, "the server is starting") }
        let check = RequestCheck(authority: LocalAuthority(port: listening), token: token)
        if let refusal = check.refusal(for: request) { return PageResponse.refused(refusal.status, refusal.reason) }
        // The checks passed, so the Host header is there and names this server.
        let host = request.headers[.host] ?? ""
        switch request.path {
        case "/":
            return PageResponse.ok(PageAssets.page(token: token), contentType: "text/html; charset=utf-8", host: host)
        case "/ws":
            guard request.headers[HTTPHeader("Origin")] != nil else {
                return PageResponse.refused(.forbidden, "a WebSocket must come from the simulator page (the request has no Origin)")
            }
            return try await WebSocketHTTPHandler(handler: PageSocket(session: session))
                .handleRequest(request)
        default:
            guard let asset = PageAssets.asset(at: request.path) else {
                return PageResponse.refused(.notFound, "nothing is served at \(request.path)", host: host)
            }
            return PageResponse.ok(asset.body, contentType: asset.contentType, host: host)
        }
    }
}
