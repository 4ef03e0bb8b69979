import FlyingFox

/// The rules every request passes before it is looked at, in this order: its `Host` names this
/// server, its `Origin` (if any) is this server, it carries the token exactly once, and it is a
/// GET. The first rule broken refuses it with its status and reason.
struct RequestCheck: Sendable {
    struct Refusal: Equatable {
        let status: HTTPStatusCode
        let reason: String
    }

    let authority: LocalAuthority
    let token: AccessToken

    func refusal(for request: HTTPRequest) -> Refusal? {
        let host = request.headers[.host]
        if let problem = authority.problem(host: host) { return Refusal(status: .forbidden, reason: problem) }
        if let problem = authority.problem(origin: request.headers[HTTPHeader("Origin")], host: host ?? "") {
            return Refusal(status: .forbidden, reason: problem)
        }
        let given = request.query.filter { $0.name == "token" }
        guard given.count == 1 else {
            return Refusal(status: .unauthorized, reason: given.isEmpty
                ? "the request has no token: use the address wayfinder serve printed (it ends in ?token=...)"
                : "the request has more than one token")
        }
        guard token.matches(given[0].value) else {
            return Refusal(status: .unauthorized, reason: "the token is not this server's: use the address wayfinder serve printed")
        }
        guard request.method == .GET else {
            return Refusal(status: .methodNotAllowed, reason: "only GET is served here, not \(request.method.rawValue)")
        }
        return nil
    }
}
