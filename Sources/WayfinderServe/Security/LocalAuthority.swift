import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` and `Origin` headers name this server. A browser tricked by DNS rebinding (a
/// site's name made to point at 127.0.0.1) sends that site's name as `Host`: only `localhost` and
/// IP addresses, with the server's own port, are accepted, so such a request is refused before
/// anything else is looked at. An `Origin`, when one is sent, must be this very server
/// (`http://` and the request's own `Host`): a page of another site cannot open the WebSocket.
public struct LocalAuthority: Sendable {
    public let port: Int

    public init(port: Int) {
        self.port = port
    }

    /// Why `host` (the `Host` header) does not name this server; nil when it does.
    public func problem(host: String?) -> String? {
        guard let host, !host.isEmpty else { return "the request has no Host header" }
        guard let (name, port) = Self.split(host) else { return "the Host header '\(host)' is not a host and port" }
        guard port == self.port else { return "the Host header '\(host)' names another port than \(self.port)" }
        guard Self.isLocalName(name) else {
            return "the Host header '\(host)' is not localhost or an IP address (a name that points here is how DNS rebinding starts)"
        }
        return nil
    }

    /// Why `origin` (the `Origin` header) is not this server's own pages; nil when it is, or
    /// when there is none (a request made by hand, or a browser's plain navigation).
    public func problem(origin: String?, host: String) -> String? {
        guard let origin else { return nil }
        guard origin.lowercased() == "http://" + host.lowercased() else {
            return "the Origin '\(origin)' is not this server (http://\(host))"
        }
        return nil
    }

    /// `name:port`, `[v6]:port`; nil for anything else (no port, a port that is not digits as a
    /// browser writes them).
    static func split(_ host: String) -> (name: String, port: Int)? {
        guard let colon = host.lastIndex(of: ":") else { return nil }
        let name = String(host[..<colon])
        let digits = host[host.index(after: colon)...]
        guard !name.isEmpty, !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              digits == "0" || !digits.hasPrefix("0"), let port = Int(digits), port <= 65_535 else { return nil }
        return (name, port)
    }

    /// `localhost`, a dotted IPv4 address, or a bracketed IPv6 address.
    static func isLocalName(_ name: String) -> Bool {
        if name.lowercased() == "localhost" { return true }
        if name.hasPrefix("[") && name.hasSuffix("]") { return isAddress(String(name.dropFirst().dropLast()), family: AF_INET6) }
        return isIPv4(name)
    }

    /// Four decimal numbers 0-255 joined by dots (inet_pton's IPv4 form, no octal or hex).
    static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
        }
    }

    static func isAddress(_ text: String, family: Int32) -> Bool {
        guard !text.isEmpty, !text.contains("%") else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }
}
