/// The key share mode compares URLs by: scheme and host lowercased (ASCII only), the port, the path re-encoded
/// canonically, the query sorted by key, the fragment dropped (a fragment acts on its base URL's
/// screen). Two spellings of one screen get one key.
public enum URLNormalization {
    public static func key(for url: NavigationURL) -> String {
        var key = url.scheme + ":"
        if url.host != nil { key += "//" + PercentEncoding.escape(url.hostKey) + (url.port.map { ":" + String($0) } ?? "") }
        for segment in url.segments { key += "/" + PercentEncoding.escape(segment) }
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
