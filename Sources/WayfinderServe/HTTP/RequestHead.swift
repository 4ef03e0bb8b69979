import Foundation

/// What the front door reads of a request before the HTTP server sees it (`FrontDoor`): where
/// its head (request line and headers) ends, and how long a body follows it. The head must be
/// plain: printable ASCII and tabs, lines ended by LF or CRLF, ended by an empty line, so that
/// this reading and the server's agree on where the head ends.
struct RequestHead: Equatable {
    /// The head's bytes, its empty line included.
    let bytes: [UInt8]
    /// The body's length from `Content-Length` (0 without one).
    let bodyLength: Int

    /// Longer heads are refused before the server reads them: a browser's are well under 8 KiB,
    /// and a line without end would otherwise be read into memory without end.
    static let limit = 16 * 1024

    enum Reading: Equatable {
        /// The head is not complete yet in the bytes read (and within the limit).
        case incomplete
        /// The head, and how many of the bytes read it took.
        case head(RequestHead, length: Int)
        /// The bytes cannot be a request's head: no answer, the connection is closed.
        case notHTTP
        /// A head longer than `limit`: answered 431.
        case tooLong
        /// A body whose length is not said by `Content-Length` (`Transfer-Encoding`): answered
        /// 411, since a body the front door cannot measure could hide a request it never read.
        case unmeasuredBody
        /// A head the server could read otherwise than the front door does: answered 400 with
        /// the reason. Its target must be a path (origin-form: not `http://host/path`, not
        /// `host:port`, not `*`), so that what the front door checks is what is served, and it
        /// must have one `Host` header, so that the one checked is the one meant.
        case malformed(String)
    }

    /// Reads the head at the start of `bytes`.
    static func read(_ bytes: [UInt8]) -> Reading {
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == LF {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line == [CR] {
                    if lineStart == 0 { return .notHTTP }
                    return measured(Array(bytes[..<(index + 1)]))
                }
                lineStart = index + 1
            } else if byte == CR {
                // Only as the end of a line.
                if index + 1 < bytes.count, bytes[index + 1] != LF { return .notHTTP }
            } else if byte != TAB && (byte < 0x20 || byte > 0x7E) {
                return .notHTTP
            }
            index += 1
            if index > limit { return .tooLong }
        }
        return .incomplete
    }

    /// The request's target (its path and query), as its request line gives it.
    var target: String {
        let line = bytes.prefix { $0 != LF && $0 != CR }
        let words = line.split(separator: 0x20, omittingEmptySubsequences: false)
        return words.count >= 2 ? String(decoding: words[1], as: UTF8.self) : ""
    }

    /// Whether the target's query carries `token` exactly once (as `?token=...`); the server
    /// checks it again, as for every request, when it answers.
    func carries(_ token: AccessToken) -> Bool {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        let given = query.split(separator: "&").filter { $0.hasPrefix("token=") }
        return given.count == 1 && token.matches(String(given[0].dropFirst("token=".count)))
    }

    /// The head with its body's length, from its headers.
    private static func measured(_ head: [UInt8]) -> Reading {
        var lengths: [String] = []
        var hosts = 0
        let lines = head.split(separator: LF)
        let requestLine = String(decoding: lines.first ?? [], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let words = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        if words.count >= 2, !words[1].hasPrefix("/") {
            return .malformed("the request's target must be a path starting with /, not '\(words[1].prefix(200))'")
        }
        // Split as bytes: as a String, CR LF would be one character.
        for bytes in lines.dropFirst() {
            let line = String(decoding: bytes, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "transfer-encoding" { return .unmeasuredBody }
            if name == "content-length" { lengths.append(value) }
            if name == "host" { hosts += 1 }
        }
        guard hosts <= 1 else { return .malformed("the request has \(hosts) Host headers: it may have one") }
        guard lengths.count <= 1 else { return .notHTTP }
        guard let text = lengths.first else { return .head(RequestHead(bytes: head, bodyLength: 0), length: head.count) }
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(text) else { return .notHTTP }
        return .head(RequestHead(bytes: head, bodyLength: length), length: head.count)
    }
}

private let LF: UInt8 = 0x0A
private let CR: UInt8 = 0x0D
private let TAB: UInt8 = 0x09
