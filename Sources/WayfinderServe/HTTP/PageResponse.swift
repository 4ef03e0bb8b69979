import FlyingFox
import Foundation

/// The headers every answer carries: never cached (each holds or follows a token), never
/// framed by another page, no referrer sent on, the content type taken as given, a content
/// security policy that lets the page run only its own script and style and connect only to
/// this server, and `Connection: close` (the front door closes each connection once its one
/// request is answered).
enum PageResponse {
    static func ok(_ body: Data, contentType: String, host: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: headers(contentType: contentType, host: host), body: body)
    }

    /// A refusal: the status and the reason as plain text.
    static func refused(_ status: HTTPStatusCode, _ reason: String, host: String? = nil) -> HTTPResponse {
        var headers = headers(contentType: "text/plain; charset=utf-8", host: host)
        if status == .methodNotAllowed { headers[HTTPHeader("Allow")] = "GET" }
        return HTTPResponse(statusCode: status, headers: headers, body: Data((reason + "\n").utf8))
    }

    /// A refusal as the bytes the front door writes itself, before the server has the request.
    static func refusedBytes(_ status: HTTPStatusCode, _ reason: String) -> Data {
        let body = Data((reason + "\n").utf8)
        var head = "HTTP/1.1 \(status.code) \(status.phrase)\r\n"
        var headers = headers(contentType: "text/plain; charset=utf-8", host: nil)
        headers[.contentLength] = String(body.count)
        for (name, value) in headers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { head += "\(name.rawValue): \(value)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    private static func headers(contentType: String, host: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers[.connection] = "close"
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[HTTPHeader("X-Frame-Options")] = "DENY"
        headers[HTTPHeader("Referrer-Policy")] = "no-referrer"
        let socket = host.map { " ws://\($0)" } ?? ""
        headers[HTTPHeader("Content-Security-Policy")] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'\(socket); frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        return headers
    }
}
