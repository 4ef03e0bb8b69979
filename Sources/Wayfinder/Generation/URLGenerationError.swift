/// Why a URL could not be generated from an object: a field is nil, or its value does not fit
/// the param's type (so the URL would not match back to the same value).
public struct URLGenerationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern the URL was to be made from.
    public let pattern: String
    /// Why no URL could be made.
    public let reason: String

    /// An error for `pattern`, saying `reason`.
    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    /// The pattern and the reason, in one sentence.
    public var description: String { "cannot make a URL from '\(pattern)': \(reason)" }
}
