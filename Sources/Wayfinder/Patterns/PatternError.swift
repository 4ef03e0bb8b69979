/// Why a pattern could not be registered: it does not parse, it names an unknown type, or it
/// conflicts with a pattern already in the map.
public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public let pattern: String
    public let reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String { "pattern '\(pattern)': \(reason)" }
}
