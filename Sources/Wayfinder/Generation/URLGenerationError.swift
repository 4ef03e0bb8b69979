/// Why a URL could not be generated from an object: a field is nil, or its value does not fit
/// the param's type (so the URL would not match back to the same value).
public struct URLGenerationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let pattern: String
    public let reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String { "cannot make a URL from '\(pattern)': \(reason)" }
}
