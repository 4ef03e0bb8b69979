/// Web links onto app routes: a link under an outside prefix (`https://shop.example.com/`) is read
/// as the app URL under the inside one (`tt://`), before it goes through the door every link from
/// outside takes (`Navigator.handleLink`). Only links are read so; the app's own opens are not.
public struct LinkPrefixes: Sendable, Equatable {
    /// (outside, inside) pairs, longest outside prefix first, so the most specific one wins.
    public private(set) var pairs: [(outside: String, inside: String)] = []

    /// No prefixes: no link from outside is taken in.
    public init() {}

    /// Each prefix must be a URL ending in `/`: a prefix that stopped anywhere else would read
    /// `https://shop.example.com.elsewhere.net/` as the shop's. Refused with the reason.
    public init(_ prefixes: [String: String]) throws(LinkPrefixError) {
        for (outside, inside) in prefixes {
            for prefix in [outside, inside] {
                guard prefix.hasSuffix("/"), let colon = prefix.firstIndex(of: ":"), colon != prefix.startIndex else {
                    throw LinkPrefixError(prefix: prefix, reason: "a prefix must be a URL's beginning, a scheme and ending in '/' (such as 'https://shop.example.com/' or 'tt://')")
                }
            }
            guard let hostStart = outside.range(of: "://")?.upperBound, outside[hostStart...].first != "/" else {
                throw LinkPrefixError(prefix: outside, reason: "an outside prefix must name its host ('https://shop.example.com/')")
            }
            pairs.append((outside, inside))
        }
        pairs.sort { $0.outside.utf8.count != $1.outside.utf8.count ? $0.outside.utf8.count > $1.outside.utf8.count : $0.outside < $1.outside }
    }

    /// The app URL `url` stands for, or nil when it is under no outside prefix. The scheme and
    /// host compare regardless of case, as URLs do; the path exactly.
    public func appURL(for url: String) -> String? {
        for pair in pairs {
            guard url.utf8.count >= pair.outside.utf8.count else { continue }
            let head = url.utf8.prefix(pair.outside.utf8.count)
            guard let headText = String(head), Self.same(headText, pair.outside) else { continue }
            return pair.inside + String(decoding: url.utf8.dropFirst(pair.outside.utf8.count), as: UTF8.self)
        }
        return nil
    }

    /// The outside URL that opens `url`, or nil when it is under no inside prefix (the longest
    /// inside prefix that fits; for listing which web URLs open which routes).
    public func webURL(for url: String) -> String? {
        let fitting = pairs.filter { url.hasPrefix($0.inside) }.max { $0.inside.utf8.count < $1.inside.utf8.count }
        return fitting.map { $0.outside + url.dropFirst($0.inside.count) }
    }

    private static func same(_ given: String, _ prefix: String) -> Bool {
        // The scheme and authority end at the first '/' after "://".
        guard let start = prefix.range(of: "://")?.upperBound else { return given == prefix }
        let authorityEnd = prefix[start...].firstIndex(of: "/") ?? prefix.endIndex
        let split = prefix.distance(from: prefix.startIndex, to: authorityEnd)
        return given.prefix(split).lowercased() == prefix.prefix(split).lowercased() && given.dropFirst(split) == prefix.dropFirst(split)
    }

    /// Whether both hold the same prefixes.
    public static func == (lhs: LinkPrefixes, rhs: LinkPrefixes) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.outside == $1.outside && $0.inside == $1.inside }
    }
}

/// A link prefix that cannot be one, and why.
public struct LinkPrefixError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The prefix that was refused.
    public let prefix: String
    /// Why it was refused.
    public let reason: String
    /// The prefix and the reason, in one sentence.
    public var description: String { "link prefix '\(prefix)': \(reason)" }
}
