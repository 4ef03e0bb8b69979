/// The key share mode compares URLs by: scheme and host lowercased (ASCII only), the port, the path re-encoded
/// canonically, the query sorted by key, the fragment dropped (a fragment acts on its base URL's
/// screen). Two spellings of one screen get one key.
public enum URLNormalization {
    /// The key that identifies `url`'s screen: URLs that differ only in spelling get the same key.
    public static func key(for url: NavigationURL) -> String {
        // Every open asks for its URL's key: the scheme, host and path go into one buffer.
        var bytes = [UInt8]()
        bytes.reserveCapacity(url.text.utf8.count + 8)
        bytes.append(contentsOf: url.scheme.utf8)
        bytes.append(UInt8(ascii: ":"))
        if url.host != nil {
            bytes.append(contentsOf: "//".utf8)
            PercentEncoding.escape(url.hostKey, into: &bytes)
            if let port = url.port {
                bytes.append(UInt8(ascii: ":"))
                bytes.append(contentsOf: String(port).utf8)
            }
        }
        for segment in url.segments {
            bytes.append(UInt8(ascii: "/"))
            PercentEncoding.escape(segment, into: &bytes)
        }
        var key = String(decoding: bytes, as: UTF8.self)
        if !url.query.isEmpty {
            let sorted = url.query.sorted { $0.key < $1.key }
            let pairs = sorted.map { key, value -> String in
                let escapedKey = PercentEncoding.escape(key)
                switch value {
                case .array(let list): return list.map { escapedKey + "=" + text(of: $0) }.joined(separator: "&")
                default: return escapedKey + "=" + text(of: value)
                }
            }
            key += "?" + pairs.joined(separator: "&")
        }
        return key
    }

    private static func text(of value: Value) -> String {
        switch value {
        case .string(let s): return PercentEncoding.escape(s)
        case .bool(true): return ""
        default: return PercentEncoding.escape(value.description)
        }
    }
}
