/// Why a string is not a URL Wayfinder can route. A malformed URL matches nothing; this says why.
public enum URLReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong(bytes: Int)
    case controlCharacter(offset: Int)
    case noScheme
    case invalidPercentEscape(part: String, offset: Int)
    case invalidUTF8(part: String)
    case encodedControlCharacter(part: String)
    case userinfo
    case invalidPort
    case invalidHost(String)

    public var description: String {
        switch self {
        case .tooLong(let bytes): return "URL is \(bytes) bytes, longer than the 8 KiB limit"
        case .controlCharacter(let offset): return "control character at byte \(offset)"
        case .noScheme: return "no scheme (a URL starts with a scheme such as 'tt:')"
        case .invalidPercentEscape(let part, let offset): return "invalid percent escape in the \(part) at byte \(offset)"
        case .invalidUTF8(let part): return "invalid UTF-8 after decoding the \(part)"
        case .encodedControlCharacter(let part): return "a percent-encoded control character in the \(part)"
        case .userinfo: return "the URL has userinfo ('name@' before the host), which Wayfinder refuses"
        case .invalidPort: return "the port is not a number from 0 to 65535"
        case .invalidHost(let why): return "invalid host: \(why)"
        }
    }
}
