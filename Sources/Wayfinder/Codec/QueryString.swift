import OrderedCollections

/// Query strings by docs/matching.md's rules: pairs split on `&` and `;`, each pair on its first `=`,
/// keys and values percent-decoded, `+` a literal plus, a bare key is `true`, a repeated key gives
/// a list of its values in order.
public enum QueryString {
    /// Control characters, raw or escaped, are refused, as in a URL.
    public static func parse(_ text: String) throws(CodecError) -> OrderedDictionary<String, Value> {
        if let offset = ControlCharacter.firstOffset(in: text) { throw .controlCharacter(offset: offset) }
        var contiguous = text
        return try contiguous.withUTF8 { bytes in
            Result { () throws(CodecError) in try parse(bytes, offsetBase: 0) }
        }.get()
    }

    /// Parses the query of a URL read in place; `offsetBase` is where it starts in the URL, so
    /// reported offsets point into the whole URL. The bytes must be a string's (valid UTF-8).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int) throws(CodecError) -> OrderedDictionary<String, Value> {
        var items = OrderedDictionary<String, Value>()
        var pairStart = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == UInt8(ascii: "&") || bytes[index] == UInt8(ascii: ";") {
                if pairStart != index {
                    try addPair(UnsafeBufferPointer(rebasing: bytes[pairStart..<index]), offset: offsetBase + pairStart, to: &items)
                }
                pairStart = index + 1
            }
            index += 1
        }
        return items
    }

    private static func addPair(_ pair: UnsafeBufferPointer<UInt8>, offset: Int, to items: inout OrderedDictionary<String, Value>) throws(CodecError) {
        let value: Value
        let key: String
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            key = try PercentEncoding.unescape(UnsafeBufferPointer(rebasing: pair[0..<equals]), offsetBase: offset)
            value = .string(try PercentEncoding.unescape(UnsafeBufferPointer(rebasing: pair[(equals + 1)...]), offsetBase: offset + equals + 1))
        } else {
            key = try PercentEncoding.unescape(pair, offsetBase: offset)
            value = .bool(true)
        }
        // "=value" names no key; it carries nothing a route could read.
        guard !key.isEmpty else { return }
        switch items[key] {
        case nil: items[key] = value
        case .array(var list)?:
            list.append(value)
            items[key] = .array(list)
        case let existing?: items[key] = .array([existing, value])
        }
    }

    /// Writes a query string. Keys keep the given order; `true` writes a bare key, `false` and nil
    /// write nothing, a list repeats its key. A control character in a key or value is refused,
    /// since the query could not be read back.
    public static func format(_ items: OrderedDictionary<String, Value>) throws(CodecError) -> String {
        var parts = [String]()
        for (key, value) in items {
            if NavigationURL.hasControlCharacter(key) { throw .controlCharacterInQuery(key: key) }
            let escapedKey = PercentEncoding.escape(key)
            switch value {
            case .array(let list):
                for element in list {
                    if let part = try pairText(escapedKey, key: key, element) { parts.append(part) }
                }
            default:
                if let part = try pairText(escapedKey, key: key, value) { parts.append(part) }
            }
        }
        return parts.joined(separator: "&")
    }

    private static func pairText(_ escapedKey: String, key: String, _ value: Value) throws(CodecError) -> String? {
        switch value {
        case .null, .bool(false): return nil
        case .bool(true): return escapedKey
        case .string(let s):
            if NavigationURL.hasControlCharacter(s) { throw .controlCharacterInQuery(key: key) }
            return escapedKey + "=" + PercentEncoding.escape(s)
        case .int(let i): return escapedKey + "=" + String(i)
        case .double(let d): return escapedKey + "=" + NumberText.format(d)
        case .array, .map, .handle: throw .unsupportedQueryValue(key: key, kind: value.kindName)
        }
    }
}

/// Numbers written into URLs: integers as integers, floats in their shortest round-trip form.
enum NumberText {
    static func format(_ value: Double) -> String {
        value.description
    }
}
