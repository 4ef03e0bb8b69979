/// A registered route: a compiled pattern, what it opens, and how.
public struct Route<Target> {
    public let pattern: Pattern
    public let target: Target
    public let options: RouteOptions

    public init(pattern: Pattern, target: Target, options: RouteOptions) {
        self.pattern = pattern
        self.target = target
        self.options = options
    }

    /// The constructor selector: the `selector` option, or the param names in pattern order each
    /// followed by `:` (Three20's deduction), or nil for a pattern without named params.
    public var selector: String? {
        if let selector = options.selector { return selector }
        let names = pattern.paramNames
        return names.isEmpty ? nil : names.map { $0 + ":" }.joined()
    }
}
