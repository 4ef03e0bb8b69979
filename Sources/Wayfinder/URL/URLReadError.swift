/// Why a string is not a URL Wayfinder can route. A malformed URL matches nothing; this says why.
public enum URLReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is longer than ``NavigationURL/maximumLength``.
    case tooLong(bytes: Int)
    /// A control character at this byte offset.
    case controlCharacter(offset: Int)
    /// The URL has no `scheme:`.
    case noScheme
    /// A malformed `%` escape in this part of the URL.
    case invalidPercentEscape(part: String, offset: Int)
    /// This part of the URL does not decode to UTF-8.
    case invalidUTF8(part: String)
    /// This part of the URL decodes to a control character.
    case encodedControlCharacter(part: String)
    /// The URL has a `user@` part, which app URLs may not.
    case userinfo
    /// The port is not a number from 0 to 65535.
    case invalidPort
    /// The host is not a valid host.
    case invalidHost(String)

    /// What is wrong with the URL.
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
