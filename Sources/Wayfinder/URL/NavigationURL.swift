import OrderedCollections

/// A URL as the router reads it (docs/matching.md, "Reading a URL"): scheme and host compared without
/// case, the path split on raw `/` with empty segments dropped and each segment decoded once (so
/// `%2F` stays inside its segment), the query parsed into pairs, the fragment decoded.
public struct NavigationURL: Sendable, Equatable {
    /// The longest URL read, in bytes.
    public static let maximumLength = 8 * 1024

    /// The fields, in one object: a URL is copied into every match and every navigation entry,
    /// and a copy is then one reference rather than one per field.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let text: String
        @usableFromInline let scheme: String
        @usableFromInline let host: String?
        @usableFromInline let port: Int?
        @usableFromInline let segments: [String]
        @usableFromInline let query: OrderedDictionary<String, Value>
        @usableFromInline let fragment: String?

        /// Reads the fields in the order that decides which error a malformed URL reports first.
        init(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) throws(URLReadError) {
            self.text = text
            let scheme: String
            var host: String?
            var port: Int?
            var segments: [String] = []
            var query: OrderedDictionary<String, Value> = [:]
            var fragment: String?

            let count = bytes.count
            guard count <= NavigationURL.maximumLength else { throw .tooLong(bytes: count) }

            // One pass finds the control characters and the delimiters, and whether anything is
            // escaped; the errors are still reported in their order (control characters before
            // the scheme). A delimiter after the first `#` belongs to the fragment.
            var controlOffset: Int?
            var endOfPath = count
            var hashOffset: Int?
            var slashes = 0
            var hasEscape = false
            for scan in 0..<count {
                let byte = bytes[scan]
                // Letters and most of ASCII punctuation need no look.
                if byte > UInt8(ascii: "?") && byte < 0x7F { continue }
                switch byte {
                case UInt8(ascii: "/"):
                    if endOfPath == count { slashes += 1 }
                case UInt8(ascii: "?"):
                    if endOfPath == count { endOfPath = scan }
                case UInt8(ascii: "#"):
                    if hashOffset == nil {
                        hashOffset = scan
                        if endOfPath == count { endOfPath = scan }
                    }
                case UInt8(ascii: "%"):
                    hasEscape = true
                case 0..<0x20, 0x7F:
                    if controlOffset == nil { controlOffset = scan }
                case 0xC2:
                    // A C1 control is C2 80 to C2 9F (see `ControlCharacter`).
                    if controlOffset == nil, scan + 1 < count, (0x80...0x9F).contains(bytes[scan + 1]) { controlOffset = scan }
                default:
                    break
                }
            }
            if let controlOffset { throw .controlCharacter(offset: controlOffset) }

            guard let colon = NavigationURL.schemeEnd(bytes) else { throw .noScheme }
            let schemeBytes = UnsafeBufferPointer(rebasing: bytes[0..<colon])
            scheme = schemeBytes.contains(where: NavigationURL.isUppercase)
                ? String(decoding: schemeBytes, as: UTF8.self).lowercased()
                : String(decoding: schemeBytes, as: UTF8.self)
            var cursor = colon + 1

            /// A host or path component, decoded only when the URL has an escape somewhere.
            func component(_ range: Range<Int>, part: String) throws(URLReadError) -> String {
                hasEscape ? try NavigationURL.decode(bytes, range, part: part)
                    : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }

            if cursor + 1 < count, bytes[cursor] == UInt8(ascii: "/"), bytes[cursor + 1] == UInt8(ascii: "/") {
                let authorityStart = cursor + 2
                var authorityEnd = authorityStart
                // The delimiters of userinfo, port and an IPv6 host are noted on the way.
                var lastColon = -1
                var firstClose = -1
                while authorityEnd < endOfPath {
                    let byte = bytes[authorityEnd]
                    if byte == UInt8(ascii: "/") { break }
                    if byte == UInt8(ascii: ":") {
                        lastColon = authorityEnd
                    } else if byte == UInt8(ascii: "]") {
                        if firstClose < 0 { firstClose = authorityEnd }
                    } else if byte == UInt8(ascii: "@") {
                        throw .userinfo
                    }
                    authorityEnd += 1
                }
                if lastColon < 0 && (authorityStart == authorityEnd || bytes[authorityStart] != UInt8(ascii: "[")) {
                    // The usual case, a host alone, without the call.
                    host = try component(authorityStart..<authorityEnd, part: "host")
                } else {
                    (host, port) = try NavigationURL.authority(bytes, authorityStart..<authorityEnd, lastColon: lastColon,
                                                               firstClose: firstClose, scheme: scheme)
                }
                cursor = authorityEnd
            } else {
                host = nil
            }

            segments.reserveCapacity(slashes + 1)
            var segmentStart = cursor
            var index = cursor
            while index <= endOfPath {
                if index == endOfPath || bytes[index] == UInt8(ascii: "/") {
                    if segmentStart != index {
                        segments.append(try component(segmentStart..<index, part: "path"))
                    }
                    segmentStart = index + 1
                }
                index += 1
            }

            if endOfPath != count, bytes[endOfPath] == UInt8(ascii: "?") {
                let queryStart = endOfPath + 1
                let queryEnd = hashOffset ?? count
                do {
                    query = try QueryString.parse(UnsafeBufferPointer(rebasing: bytes[queryStart..<queryEnd]), offsetBase: queryStart)
                } catch {
                    switch error {
                    case .invalidPercentEscape(let at): throw .invalidPercentEscape(part: "query", offset: at)
                    case .encodedControlCharacter: throw .encodedControlCharacter(part: "query")
                    default: throw .invalidUTF8(part: "query")
                    }
                }
            }

            if let hashOffset {
                let decoded = try NavigationURL.decode(bytes, (hashOffset + 1)..<count, part: "fragment")
                fragment = decoded.isEmpty ? nil : decoded
            }

            self.scheme = scheme
            self.host = host
            self.port = port
            self.segments = segments
            self.query = query
            self.fragment = fragment
        }
    }

    @usableFromInline let storage: Storage

    /// The text as given.
    @inlinable public var text: String { storage.text }
    /// Lowercased.
    @inlinable public var scheme: String { storage.scheme }
    /// Decoded, case kept; nil for URLs without an authority (`tel:5551234`). The authority's port
    /// is not part of it, and a URL with userinfo (`me@host`) is refused.
    @inlinable public var host: String? { storage.host }
    /// The authority's port; nil when there is none, it is empty, or it is the scheme's default
    /// (80 for http and ws, 443 for https and wss), which is the same as none.
    @inlinable public var port: Int? { storage.port }
    /// The decoded, non-empty path segments.
    @inlinable public var segments: [String] { storage.segments }
    /// The query's keys and values, decoded, in the order the URL gives them.
    @inlinable public var query: OrderedDictionary<String, Value> { storage.query }
    /// Decoded; nil when the URL has none (an empty fragment counts as none).
    @inlinable public var fragment: String? { storage.fragment }

    /// Every field is read from the text, so equal texts are equal URLs.
    public static func == (a: NavigationURL, b: NavigationURL) -> Bool { a.storage === b.storage || a.text == b.text }

    /// The host as literal host components compare it: ASCII letters folded to lowercase, nothing
    /// else (Unicode case folding would let a KELVIN SIGN stand for a `k`).
    public var hostKey: String {
        guard let host else { return "" }
        return NavigationURL.asciiLowercased(host)
    }

    /// The trie root a URL is looked up under: the scheme, with the port when there is one.
    var rootKey: String {
        guard let port else { return scheme }
        return scheme + ":" + String(port)
    }

    /// `text` with ASCII `A`-`Z` lowercased and every other character kept.
    public static func asciiLowercased(_ text: String) -> String {
        // Read in place: the search asks for every URL's host key.
        guard text.withBytes({ $0.contains(where: isUppercase) }) else { return text }
        return String(decoding: text.utf8.map { isUppercase($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The port that means "no port" for a scheme.
    public static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// Reads `text`; throws when it is not a URL the navigator accepts.
    public init(_ text: String) throws(URLReadError) {
        // Reading raw bytes by integer offset, rather than stepping string indices, is what
        // keeps reading a URL cheap next to matching it.
        storage = try text.withBytes { bytes in Result { () throws(URLReadError) in try Storage(text, bytes) } }.get()
    }

    /// The offset of the `:` ending a well-formed scheme (RFC 3986: a letter, then letters, digits,
    /// `+`, `-`, `.`), or nil.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, isLetter(first) else { return nil }
        for index in 1..<bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            else { return nil }
        }
        return nil
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// Splits `host[:port]` as RFC 3986 does (userinfo was refused while the authority was
    /// found); an IPv6 host keeps its brackets. `lastColon` and `firstClose` are offsets, or -1.
    private static func authority(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lastColon: Int, firstClose: Int,
                                  scheme: String) throws(URLReadError) -> (String, Int?) {
        var hostEnd = range.upperBound
        var portStart = -1
        if !range.isEmpty && bytes[range.lowerBound] == UInt8(ascii: "[") {
            guard firstClose >= 0 else { throw .invalidHost("an IPv6 host needs its closing ']'") }
            let address = String(decoding: UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<firstClose]), as: UTF8.self)
            guard IPv6Address.isValid(address) else { throw .invalidHost("'[\(address)]' is not an IPv6 address") }
            hostEnd = firstClose + 1
            if hostEnd < range.upperBound {
                guard bytes[hostEnd] == UInt8(ascii: ":") else { throw .invalidHost("only a port may follow an IPv6 host's ']'") }
                portStart = hostEnd + 1
            }
        } else if lastColon >= 0 {
            hostEnd = lastColon
            portStart = lastColon + 1
        }
        let host = try decode(bytes, range.lowerBound..<hostEnd, part: "host")
        guard portStart >= 0, portStart < range.upperBound else { return (host, nil) }
        var port = 0
        for index in portStart..<range.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { throw .invalidPort }
            port = port * 10 + Int(byte - UInt8(ascii: "0"))
            guard port <= 65535 else { throw .invalidPort }
        }
        return (host, port == defaultPort(for: scheme) ? nil : port)
    }

    static func hasControlCharacter(_ text: String) -> Bool {
        ControlCharacter.firstOffset(in: text) != nil
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, part: String) throws(URLReadError) -> String {
        let text: String
        do {
            text = try PercentEncoding.unescape(UnsafeBufferPointer(rebasing: bytes[range]), offsetBase: range.lowerBound)
        } catch {
            switch error {
            case .invalidPercentEscape(let at): throw .invalidPercentEscape(part: part, offset: at)
            case .encodedControlCharacter: throw .encodedControlCharacter(part: part)
            default: throw .invalidUTF8(part: part)
            }
        }
        return text
    }
}
