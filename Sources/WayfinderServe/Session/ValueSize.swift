import Wayfinder

/// What a value holds, in bytes, as the server's bounds count it: each string's UTF-8 bytes and
/// each map key's, and 16 bytes for every value and key besides (what Swift spends on it at the
/// least). Not the exact memory it takes, but never less than its text, and growing with it.
enum ValueSize {
    static let perValue = 16

    static func bytes(of value: Value) -> Int {
        switch value {
        case .null, .bool, .int, .double, .handle: return perValue
        case .string(let text): return perValue + text.utf8.count
        case .array(let items): return items.reduce(perValue) { $0 + bytes(of: $1) }
        case .map(let fields): return fields.reduce(perValue) { $0 + perValue + $1.key.utf8.count + bytes(of: $1.value) }
        }
    }
}
