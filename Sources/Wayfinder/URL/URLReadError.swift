/// Why a string is not a URL Wayfinder can route. A malformed URL matches nothing; this says why.
public enum URLReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong(bytes: Int)
    case controlCharacter(offset: Int)
    case noScheme
    case invalidPercentEscape(part: String, offset: Int)
    case invalidUTF8(part: String)

    public var description: String {
        switch self {
        case .tooLong(let bytes): return "URL is \(bytes) bytes, longer than the 8 KiB limit"
        case .controlCharacter(let offset): return "control character at byte \(offset)"
        case .noScheme: return "no scheme (a URL starts with a scheme such as 'tt:')"
        case .invalidPercentEscape(let part, let offset): return "invalid percent escape in the \(part) at byte \(offset)"
        case .invalidUTF8(let part): return "invalid UTF-8 after decoding the \(part)"
        }
    }
}
