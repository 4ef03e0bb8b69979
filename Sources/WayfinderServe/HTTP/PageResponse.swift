import FlyingFox
import Foundation

/// The headers every answer carries: never cached (each holds or follows a token), never
/// framed by another page, no referrer sent on, the content type taken as given, and a content
/// security policy that lets the page run only its own script and style and connect only to
/// this server.
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

    private static func headers(contentType: String, host: String?) -> HTTPHeaders {
        var headers = HTTPHeaders()
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
