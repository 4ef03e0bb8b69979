/// Why a piece of URL text could not be read. Every case carries enough to name the cause.
public enum CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidPercentEscape(offset: Int)
    case invalidUTF8
    /// A percent escape that decodes to a control character, in a URL's text (see `PercentEncoding`).
    case encodedControlCharacter(offset: Int)
    /// A raw control character in a query string, which no URL can carry.
    case controlCharacter(offset: Int)
    /// A key or value holding a control character, which a query string cannot carry.
    case controlCharacterInQuery(key: String)
    case malformedToken(String)
    case unsupportedQueryValue(key: String, kind: String)

    public var description: String {
        switch self {
        case .invalidPercentEscape(let offset): return "invalid percent escape at byte \(offset)"
        case .invalidUTF8: return "invalid UTF-8 after decoding"
        case .encodedControlCharacter(let offset): return "a percent-encoded control character at byte \(offset)"
        case .controlCharacter(let offset): return "control character at byte \(offset)"
        case .controlCharacterInQuery(let key): return "the query pair '\(key)' holds a control character, which a URL cannot carry"
        case .malformedToken(let why): return "malformed id token: \(why)"
        case .unsupportedQueryValue(let key, let kind): return "query value for '\(key)' is a \(kind); only strings, numbers, booleans and lists of them can be written"
        }
    }
}
