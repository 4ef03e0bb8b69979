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

    /// The head with its body's length, from its headers.
    private static func measured(_ head: [UInt8]) -> Reading {
        var lengths: [String] = []
        // Split as bytes: as a String, CR LF would be one character.
        for bytes in head.split(separator: LF).dropFirst() {
            let line = String(decoding: bytes, as: UTF8.self)
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if name == "transfer-encoding" { return .unmeasuredBody }
            if name == "content-length" { lengths.append(value) }
        }
        guard lengths.count <= 1 else { return .notHTTP }
        guard let text = lengths.first else { return .head(RequestHead(bytes: head, bodyLength: 0), length: head.count) }
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(text) else { return .notHTTP }
        return .head(RequestHead(bytes: head, bodyLength: length), length: head.count)
    }
}

private let LF: UInt8 = 0x0A
private let CR: UInt8 = 0x0D
private let TAB: UInt8 = 0x09
