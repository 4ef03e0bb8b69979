/// Why a piece of URL text could not be read. Every case carries enough to name the cause.
public enum CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A `%` not followed by two hex digits, at this byte offset of the text.
    case invalidPercentEscape(offset: Int)
    /// The decoded bytes are not UTF-8.
    case invalidUTF8
    /// A percent escape that decodes to a control character, in a URL's text (see `PercentEncoding`).
    case encodedControlCharacter(offset: Int)
    /// A raw control character in a query string, which no URL can carry.
    case controlCharacter(offset: Int)
    /// A key or value holding a control character, which a query string cannot carry.
    case controlCharacterInQuery(key: String)
    /// An object id token that does not decode.
    case malformedToken(String)
    /// A query value of a kind a query string cannot hold (a map, a nested array).
    case unsupportedQueryValue(key: String, kind: String)

    /// What went wrong, with the offset or key it concerns.
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
