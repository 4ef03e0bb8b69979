import OrderedCollections

/// A URL as the router reads it (MATCHING.md, "Reading a URL"): scheme and host compared without
/// case, the path split on raw `/` with empty segments dropped and each segment decoded once (so
/// `%2F` stays inside its segment), the query parsed into pairs, the fragment decoded.
public struct NavigationURL: Sendable, Equatable {
    public static let maximumLength = 8 * 1024

    /// The text as given.
    public let text: String
    /// Lowercased.
    public let scheme: String
    /// Decoded, case kept; nil for URLs without an authority (`tel:5551234`).
    public let host: String?
    /// The decoded, non-empty path segments.
    public let segments: [String]
    public let query: OrderedDictionary<String, Value>
    /// Decoded; nil when the URL has none (an empty fragment counts as none).
    public let fragment: String?

    /// The host as literal host components compare it.
    public var hostKey: String { host?.lowercased() ?? "" }

    public init(_ text: String) throws(URLReadError) {
        self.text = text
        let bytes = text.utf8
        guard bytes.count <= Self.maximumLength else { throw .tooLong(bytes: bytes.count) }
        var offset = 0
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter(offset: offset) }
            offset += 1
        }

        let all = text[...].utf8
        guard let colon = Self.schemeEnd(all) else { throw .noScheme }
        scheme = String(decoding: all[all.startIndex..<colon], as: UTF8.self).lowercased()
        var cursor = all.index(after: colon)

        let endOfPath = all[cursor...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? all.endIndex
        let hashIndex = all[cursor...].firstIndex(of: UInt8(ascii: "#"))

        if all[cursor...].starts(with: "//".utf8) {
            let authorityStart = all.index(cursor, offsetBy: 2)
            let authorityEnd = all[authorityStart..<endOfPath].firstIndex(of: UInt8(ascii: "/")) ?? endOfPath
            host = try Self.decode(all[authorityStart..<authorityEnd], part: "host", in: all)
            cursor = authorityEnd
        } else {
            host = nil
        }

        var segments = [String]()
        var segmentStart = cursor
        var index = cursor
        while index <= endOfPath {
            if index == endOfPath || all[index] == UInt8(ascii: "/") {
                if segmentStart != index {
                    segments.append(try Self.decode(all[segmentStart..<index], part: "path", in: all))
                }
                if index == endOfPath { break }
                index = all.index(after: index)
                segmentStart = index
            } else {
                index = all.index(after: index)
            }
        }
        self.segments = segments

        if endOfPath != all.endIndex, all[endOfPath] == UInt8(ascii: "?") {
            let queryStart = all.index(after: endOfPath)
            let queryEnd = hashIndex ?? all.endIndex
            do {
                query = try QueryString.parse(all[queryStart..<queryEnd],
                                              offsetBase: all.distance(from: all.startIndex, to: queryStart))
            } catch {
                switch error {
                case .invalidPercentEscape(let at): throw .invalidPercentEscape(part: "query", offset: at)
                default: throw .invalidUTF8(part: "query")
                }
            }
        } else {
            query = [:]
        }

        if let hashIndex {
            let decoded = try Self.decode(all[all.index(after: hashIndex)...], part: "fragment", in: all)
            fragment = decoded.isEmpty ? nil : decoded
        } else {
            fragment = nil
        }
    }

    /// The index of the `:` ending a well-formed scheme (RFC 3986: a letter, then letters, digits,
    /// `+`, `-`, `.`), or nil.
    private static func schemeEnd(_ bytes: Substring.UTF8View) -> Substring.UTF8View.Index? {
        var index = bytes.startIndex
        guard index != bytes.endIndex, isLetter(bytes[index]) else { return nil }
        index = bytes.index(after: index)
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
            index = bytes.index(after: index)
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func decode(_ slice: Substring.UTF8View, part: String, in all: Substring.UTF8View) throws(URLReadError) -> String {
        let base = all.distance(from: all.startIndex, to: slice.startIndex)
        do {
            return try PercentEncoding.unescape(slice, offsetBase: base)
        } catch {
            switch error {
            case .invalidPercentEscape(let at): throw .invalidPercentEscape(part: part, offset: at)
            default: throw .invalidUTF8(part: part)
            }
        }
    }
}
