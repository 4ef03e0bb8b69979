/// Why a pattern could not be registered: it does not parse, it names an unknown type, or it
/// conflicts with a pattern already in the map.
public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern's text.
    public let pattern: String
    /// What is wrong with it.
    public let reason: String

    /// An error for `pattern`, saying `reason`.
    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    /// The pattern and the reason, in one sentence.
    public var description: String { "pattern '\(pattern)': \(reason)" }
}
