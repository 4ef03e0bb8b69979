/// Why a URL could not be generated from an object: a field is nil, or its value does not fit
/// the param's type (so the URL would not match back to the same value).
public struct URLGenerationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pattern the URL was to be made from.
    public let pattern: String
    /// Why no URL could be made.
    public let reason: String
    /// The param whose value could not stand in the URL, when one is at fault.
    public let param: String?

    /// An error for `pattern`, saying `reason`, with `param` at fault when one is.
    public init(pattern: String, reason: String, param: String? = nil) {
        self.pattern = pattern
        self.reason = reason
        self.param = param
    }

    /// The pattern and the reason, in one sentence.
    public var description: String { "cannot make a URL from '\(pattern)': \(reason)" }
}

/// What a generated URL's values are called in its errors: an object's fields (`map:url`, the
/// patterns that make a parent's or a moved route's URL) or a named route's params.
public enum URLValueName: String, Sendable {
    /// An object's field: "field 'id'".
    case field
    /// A named route's param: "param 'id'".
    case param
}
